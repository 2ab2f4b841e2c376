// Regression (issue 11 fuzzing): a provider that answers with a corrupt compressed body made the
// standalone executable print Bun's `Decompression error: ZlibError` on stderr, inside the
// auto-recall Hook (which must never write to stderr, hooks.md §1) and next to the one
// operator line of `check --search` (config.md §11). A well-formed compressed body still works.
// These rows run the executable's entry points; the same bodies on Bun, Node.js and Deno, with
// each runtime's stderr checked empty, are test/runtime/outbound-matrix.test.ts's compression rows.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { gzipSync } from 'node:zlib';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { exeLauncher } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { runProcess } from '../support/run-process.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

let fake: FakeServer;
let root: string;
let v1: string;
let v2: string;
const ENV = cleanEnv({ CONTEXT_TOKEN: 'compressed-token' });
const ENVELOPE = { items: [{ id: 'doc-1', content: 'gzip answer' }] };

beforeAll(async () => {
  fake = await startFakeServer();
  const dir = await makeTempDir('ec-compressed-');
  root = dir.path;
  const provider = { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: 'CONTEXT_TOKEN' };
  v1 = await writeConfigFile({ version: 1, provider }, { dir: root, name: 'v1.json' });
  v2 = await writeConfigFile({ version: 2, provider, autoRecall: { repositoryRoot: root, timeoutMs: 5000 } }, { dir: root, name: 'v2.json' });
});
afterAll(async () => {
  await fake.close();
  await removeTempDirs();
});

const COMPRESSION = proves('compression', ['executable']);
const LAUNCHERS = () => [exeLauncher()];
const PROMPT = JSON.stringify({ hook_event_name: 'UserPromptSubmit', submitted_prompt: 'compressed answer', cwd: '' });

describe(`a corrupt compressed provider body ${COMPRESSION('executable')}`, () => {
  test.each(['gzip', 'br', 'deflate'])('content-encoding %s: check --search writes exactly its one operator line; auto-recall stays silent', async (coding) => {
    fake.reset();
    fake.override({ kind: 'reply', status: 200, body: 'this is not compressed', headers: { 'content-encoding': coding } });
    await Promise.all(
      LAUNCHERS().map(async (launcher) => {
        const check = await runProcess(launcher.command, [...launcher.args, 'check', '--config', v1, '--search', 'compressed answer'], { env: ENV });
        expect({ launcher: launcher.label, code: check.code }).toEqual({ launcher: launcher.label, code: 1 });
        // Deno reads some corrupt codings as undecoded bytes (invalid JSON) rather than a failed read.
        expect(check.stderr).toMatch(/^external-context: context_search failed: (connection-reset|invalid-json)\n$/);
        const hook = await runProcess(launcher.command, [...launcher.args, 'hook', 'auto-recall', '--config', v2], {
          env: ENV,
          stdin: PROMPT.replace('"cwd":""', `"cwd":${JSON.stringify(root)}`),
        });
        expect({ launcher: launcher.label, code: hook.code, stdout: hook.stdout, stderr: hook.stderr }).toEqual({ launcher: launcher.label, code: 0, stdout: '{}', stderr: '' });
      }),
    );
  });

  test('a small gzip body that decodes past 1 MiB is response-too-large: its content-length never frames the decoded read', async () => {
    fake.reset();
    const bomb = new Uint8Array(gzipSync(JSON.stringify({ items: [{ id: 'doc-1', content: 'x'.repeat(2 * 1_048_576) }] })));
    expect(bomb.byteLength).toBeLessThan(16_384);
    fake.override({ kind: 'reply', status: 200, body: bomb, headers: { 'content-encoding': 'gzip', 'content-length': String(bomb.byteLength) } });
    await Promise.all(
      LAUNCHERS().map(async (launcher) => {
        const check = await runProcess(launcher.command, [...launcher.args, 'check', '--config', v1, '--search', 'compressed answer'], { env: ENV });
        expect({ launcher: launcher.label, code: check.code, stderr: check.stderr }).toEqual({
          launcher: launcher.label,
          code: 1,
          stderr: 'external-context: context_search failed: response-too-large\n',
        });
      }),
    );
  });

  test('a well-formed gzip body is decoded', async () => {
    fake.reset();
    fake.override({ kind: 'reply', status: 200, body: new Uint8Array(gzipSync(JSON.stringify(ENVELOPE))), headers: { 'content-encoding': 'gzip' } });
    await Promise.all(
      LAUNCHERS().map(async (launcher) => {
        const check = await runProcess(launcher.command, [...launcher.args, 'check', '--config', v1, '--search', 'compressed answer'], { env: ENV });
        expect({ launcher: launcher.label, code: check.code, stderr: check.stderr }).toEqual({ launcher: launcher.label, code: 0, stderr: '' });
        expect(check.stdout).toContain('"content":"gzip answer"');
      }),
    );
  });
});
