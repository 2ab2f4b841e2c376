// corpus index never destroys an input, leaves out .git/, ignored and excluded files, and
// corpus serve follows a replaced index without a restart (providers.md §8.1, §8.2): on the
// executable and on the bundle under Deno (Node.js 20 on this machine has no node:sqlite). Every
// case runs on the executable; Deno runs what its runtime does itself (node:fs realpath, lstat
// and stat of links, folders and missing targets, node:sqlite, the directory walk, the swap) and
// leaves out the rows that only take another branch of the same comparison or filter.
import { afterAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binPath, bundlePath, exePath, requireBuilt } from '../support/paths.ts';
import { proves } from '../support/runtime-capabilities.ts';

const TOKEN = 'canary-token-corpus-safety-5b1c';
const TOKEN_ENV = 'CORPUS_SAFETY_TOKEN';
const root = mkdtempSync(join(tmpdir(), 'corpus-safety-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CORPUS_FILES = proves('corpus-files', ['executable', 'deno-bundle']);
const runtimes: Array<{ label: string; id: 'executable' | 'deno-bundle'; command: string; args: string[] }> = [
  { label: 'executable', id: 'executable', command: requireBuilt(exePath()), args: [] },
  { label: 'deno', id: 'deno-bundle', command: binPath('deno'), args: ['run', '--no-prompt', '--allow-read', '--allow-env', '--allow-net', '--allow-write', requireBuilt(bundlePath())] },
];

function corpus(runtime: (typeof runtimes)[number], cwd: string, args: string[]) {
  const result = spawnSync(runtime.command, [...runtime.args, 'corpus', ...args], { cwd, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', [TOKEN_ENV]: TOKEN } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function ids(db: string): string[] {
  const open = new Database(db, { readonly: true });
  try {
    return (open.query('SELECT DISTINCT uri FROM chunks').all() as Array<{ uri: string }>).map((row) => row.uri.split('#')[0] ?? '').sort();
  } finally {
    open.close();
  }
}

for (const runtime of runtimes) {
  describe(`corpus on the ${runtime.label} ${CORPUS_FILES(runtime.id)}`, () => {
    const dir = join(root, runtime.label);
    mkdirSync(join(dir, 'd'), { recursive: true });
    writeFileSync(join(dir, 'd', 'notes.md'), '# Notes\n\nKeep me.');
    writeFileSync(join(dir, 'plain.txt'), 'not an index');

    test('refuses an --out that is an input, links to one, or lies inside an input folder; never replaces a non-index file', () => {
      symlinkSync(join(dir, 'd', 'notes.md'), join(dir, 'link.md'));
      const isInput = '[external-context] The --out file is one of the inputs or lies inside an input folder; choose a path outside them.\n';
      // Deno: a missing --out inside an input folder (realpath of its folder, stat of the input)
      // and a link to an input (lstat and realpath); the other three are the same comparison.
      const refused = [
        ['index', 'd', '--out', 'd/new.sqlite'],
        ['index', 'd/notes.md', '--out', 'link.md'],
        ['index', 'd', '--out', 'd/notes.md'],
        ['index', 'd/notes.md', '--out', 'd/notes.md'],
        ['index', '.', '--out', 'fresh.sqlite'],
      ];
      for (const args of runtime.label === 'executable' ? refused : refused.slice(0, 2)) {
        expect(corpus(runtime, dir, args)).toEqual({ code: 1, stdout: '', stderr: isInput });
      }
      expect(corpus(runtime, dir, ['index', 'd', '--out', 'plain.txt'])).toEqual({
        code: 1,
        stdout: '',
        stderr: '[external-context] The --out file exists and is not an index made by corpus index; it was left unchanged.\n',
      });
      expect(readFileSync(join(dir, 'd', 'notes.md'), 'utf8')).toBe('# Notes\n\nKeep me.');
      expect(readFileSync(join(dir, 'plain.txt'), 'utf8')).toBe('not an index');
      expect(existsSync(join(dir, 'd', 'new.sqlite')) || existsSync(join(dir, 'fresh.sqlite'))).toBe(false);
      // An index this command wrote is replaced.
      expect(corpus(runtime, dir, ['index', 'd', '--out', 'ok.sqlite']).code).toBe(0);
      expect(corpus(runtime, dir, ['index', 'd', '--out', 'ok.sqlite']).code).toBe(0);
    });

    test('leaves out .git/, what .gitignore files ignore, --exclude, and keeps only --include', () => {
      const repo = join(dir, 'repo');
      mkdirSync(join(repo, '.git'), { recursive: true });
      mkdirSync(join(repo, 'docs', 'drafts'), { recursive: true });
      mkdirSync(join(repo, 'build'), { recursive: true });
      writeFileSync(join(repo, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
      writeFileSync(join(repo, '.gitignore'), 'build/\n*.secret\n');
      writeFileSync(join(repo, 'docs', '.gitignore'), 'private.md\n');
      for (const file of ['README.md', 'docs/guide.md', 'docs/private.md', 'docs/drafts/idea.md', 'docs/log.txt', 'build/out.md', 'key.secret']) {
        writeFileSync(join(repo, file), `# ${file}\n\nrepositoryformatversion text`);
      }
      expect(corpus(runtime, repo, ['index', '.', '--out', '../repo.sqlite']).code).toBe(0);
      expect(ids(join(dir, 'repo.sqlite'))).toEqual(['.gitignore', 'README.md', 'docs/.gitignore', 'docs/drafts/idea.md', 'docs/guide.md', 'docs/log.txt']);
      // --exclude and --include filter the same walk: the executable.
      if (runtime.label !== 'executable') return;
      expect(corpus(runtime, repo, ['index', 'docs', '--out', '../repo.sqlite', '--exclude', 'drafts/', '--include', '*.md']).code).toBe(0);
      expect(ids(join(dir, 'repo.sqlite'))).toEqual(['docs/guide.md']);
    });

    test('corpus serve answers from a replaced index without a restart, and no query fails during the swap', async () => {
      const work = join(dir, 'serve');
      mkdirSync(join(work, 'in'), { recursive: true });
      writeFileSync(join(work, 'in', 'a.md'), '# Alpha\n\nalpha widgets');
      expect(corpus(runtime, work, ['index', 'in', '--out', 'live.sqlite']).code).toBe(0);
      const serveArgs = runtime.label === 'deno' ? runtime.args.filter((arg) => arg !== '--allow-write') : runtime.args;
      const child = spawn(runtime.command, [...serveArgs, 'corpus', 'serve', '--db', 'live.sqlite', '--token-env', TOKEN_ENV, '--listen', '127.0.0.1:0'], {
        cwd: work,
        env: { PATH: process.env['PATH'] ?? '', [TOKEN_ENV]: TOKEN },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => {
            out += String(chunk);
            if (out.includes('\n')) resolve(out.trim());
          });
          child.once('exit', () => reject(new Error('serve exited')));
        });
        const search = async (query: string): Promise<{ status: number; uris: string[] }> => {
          const response = await fetch(`${url}/v1/context/search`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ query, limit: 5 }),
          });
          const body = (await response.json()) as { items?: Array<{ uri: string }> };
          return { status: response.status, uris: (body.items ?? []).map((item) => item.uri) };
        };
        expect(await search('alpha')).toEqual({ status: 200, uris: ['in/a.md#alpha'] });
        writeFileSync(join(work, 'in', 'b.md'), '# Beta\n\nbeta widgets');
        let stop = false;
        const during: Array<{ status: number }> = [];
        const load = (async () => {
          while (!stop) during.push(await search('widgets'));
        })();
        expect(corpus(runtime, work, ['index', 'in', '--out', 'live.sqlite']).code).toBe(0);
        expect(await search('beta')).toEqual({ status: 200, uris: ['in/b.md#beta'] });
        stop = true;
        await load;
        expect(during.every((answer) => answer.status === 200)).toBe(true);
      } finally {
        child.kill('SIGTERM');
      }
    });
  });
}
