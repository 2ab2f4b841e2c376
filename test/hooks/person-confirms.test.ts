// Whether a person will confirm on Codex and Gemini CLI (docs/design/hooks.md §6.2): the Codex
// requirements file's reviewer rule and ownership, and Gemini CLI's interactive-session rule read
// from a fake /proc tree. Every unreadable or unrecognized case is "no person".
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexReviewerIsPerson, geminiSessionIsInteractive } from '../../src/hooks/person-confirms.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

afterAll(removeTempDirs);

const uid = process.getuid?.() ?? 0;

describe('codexReviewerIsPerson()', () => {
  async function requirements(text: string, mode = 0o644): Promise<string> {
    const file = join((await makeTempDir('ec-requirements-')).path, 'requirements.toml');
    writeFileSync(file, text);
    chmodSync(file, mode);
    return file;
  }

  test('the shipped form, with comments and other keys around it, is a person', async () => {
    expect(codexReviewerIsPerson(await requirements('# managed\nallowed_approvals_reviewers = ["user"]\n'), uid)).toBe(true);
    expect(codexReviewerIsPerson(await requirements('allowed_sandbox_modes = ["read-only"]\nallowed_approvals_reviewers=[ "user" ] # only people\n\n[features]\nx = true\n'), uid)).toBe(true);
  });

  test('another reviewer allowed, the rule inside a table, twice, in another form, or absent: no person', async () => {
    for (const text of [
      'allowed_approvals_reviewers = ["user", "auto_review"]\n',
      'allowed_approvals_reviewers = ["auto_review"]\n',
      '[features]\nallowed_approvals_reviewers = ["user"]\n',
      'allowed_approvals_reviewers = ["user"]\nallowed_approvals_reviewers = ["auto_review"]\n',
      "allowed_approvals_reviewers = ['user']\n",
      'allowed_approvals_reviewers = [\n  "user",\n]\n',
      '# allowed_approvals_reviewers = ["user"]\n',
      '',
    ]) {
      expect(codexReviewerIsPerson(await requirements(text), uid)).toBe(false);
    }
  });

  test('a file others can write, one owned by someone else, a folder or a missing file: no person', async () => {
    const text = 'allowed_approvals_reviewers = ["user"]\n';
    expect(codexReviewerIsPerson(await requirements(text, 0o666), uid)).toBe(false);
    expect(codexReviewerIsPerson(await requirements(text, 0o664), uid)).toBe(false);
    expect(codexReviewerIsPerson(await requirements(text), uid + 1)).toBe(false);
    expect(codexReviewerIsPerson((await makeTempDir('ec-requirements-dir-')).path, uid)).toBe(false);
    expect(codexReviewerIsPerson('/nonexistent/requirements.toml', uid)).toBe(false);
  });
});

describe('geminiSessionIsInteractive()', () => {
  /** A fake /proc with process 4242: its cmdline and fd 0/1 links. */
  async function proc(argv: readonly string[], fds: { stdin: string; stdout: string } = { stdin: '/dev/pts/3', stdout: '/dev/pts/3' }): Promise<string> {
    const root = (await makeTempDir('ec-proc-')).path;
    mkdirSync(join(root, '4242', 'fd'), { recursive: true });
    writeFileSync(join(root, '4242', 'cmdline'), `${argv.join('\0')}\0`);
    symlinkSync(fds.stdin, join(root, '4242', 'fd', '0'));
    symlinkSync(fds.stdout, join(root, '4242', 'fd', '1'));
    return root;
  }
  const GEMINI = ['/usr/bin/node', '/opt/gemini/bin/gemini'];

  test('a terminal session without a prompt, with value flags, with -i, or after the heap relaunch is interactive', async () => {
    for (const args of [
      [],
      ['-m', 'gemini-2.5-flash', '--yolo'],
      ['--approval-mode', 'yolo'],
      ['-i', 'first prompt'],
      ['--prompt-interactive=hello', '-y'],
      ['--allowed-tools', 'a', 'b', '--yolo'],
      ['-e', 'x', 'y'],
    ]) {
      expect(geminiSessionIsInteractive({}, 4242, await proc([...GEMINI, ...args]))).toBe(true);
    }
    expect(geminiSessionIsInteractive({}, 4242, await proc(['/usr/bin/node', '--max-old-space-size=8192', '/opt/gemini/bin/gemini', '--yolo']))).toBe(true);
    expect(geminiSessionIsInteractive({}, 4242, await proc([...GEMINI], { stdin: '/dev/tty1', stdout: '/dev/pts/0' }))).toBe(true);
  });

  test('-p, --prompt, a query word, a pipe or file on stdin or stdout, CI or GitHub Actions, an unknown or missing parent: headless', async () => {
    for (const args of [['-p', 'x'], ['--prompt', 'x'], ['--prompt=x'], ['--yolo', 'save this'], ['-m', 'flash', 'query'], ['--allowed-tools', 'a', '--yolo', 'query']]) {
      expect(geminiSessionIsInteractive({}, 4242, await proc([...GEMINI, ...args]))).toBe(false);
    }
    expect(geminiSessionIsInteractive({}, 4242, await proc(GEMINI, { stdin: 'pipe:[123]', stdout: '/dev/pts/3' }))).toBe(false);
    expect(geminiSessionIsInteractive({}, 4242, await proc(GEMINI, { stdin: '/dev/pts/3', stdout: '/tmp/out.json' }))).toBe(false);
    const interactive = await proc(GEMINI);
    expect(geminiSessionIsInteractive({ CI: 'true' }, 4242, interactive)).toBe(false);
    expect(geminiSessionIsInteractive({ GITHUB_ACTIONS: 'true' }, 4242, interactive)).toBe(false);
    expect(geminiSessionIsInteractive({}, 4243, interactive)).toBe(false);
    expect(geminiSessionIsInteractive({}, undefined, interactive)).toBe(false);
  });
});
