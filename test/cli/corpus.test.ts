import { afterAll, describe, expect, test } from 'bun:test';
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { CORPUS_RUNTIME_MESSAGE } from '../../src/cli/corpus.ts';
import { run } from '../../src/cli/dispatch.ts';
import { runInMemory } from '../support/memory-io.ts';
import { bundlePath, requireBuilt } from '../support/paths.ts';
import { proves } from '../support/runtime-capabilities.ts';

const ROOT = join(import.meta.dir, '..', '..');
const DENO = join(ROOT, 'node_modules', '.bin', 'deno');
const EXECUTABLE = join(ROOT, 'dist', process.platform === 'win32' ? 'external-context.exe' : 'external-context');
const BUNDLE = join(ROOT, 'dist', 'external-context.mjs');
const TOKEN = 'canary-token-cli-0d9e';
const TOKEN_ENV = 'CANARY_CORPUS_TOKEN_VAR';

const dir = mkdtempSync(join(tmpdir(), 'cli-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'docs'));
writeFileSync(join(dir, 'docs', 'guide.md'), '# Guide\n\nHow to install the widget.\n\n## Options\n\nThe widget has options.');
writeFileSync(join(dir, 'docs', 'logo.png'), new Uint8Array([0x89, 0x50, 0x00, 0x47]));
writeFileSync(join(dir, 'notes.txt'), 'Plain notes about widgets.');

function cli(args: string[], options: { env?: Record<string, string>; stderrIsTty?: boolean } = {}) {
  return runInMemory(run, args, { cwd: dir, ...options });
}

function expectUsage(result: { code: number; stdout: string; stderr: string }, line: string): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(`[external-context] ${line}\n`);
}

describe('corpus --help', () => {
  test('prints the corpus, index and serve help on stdout with exit 0', async () => {
    for (const [args, usage] of [
      [['corpus', '--help'], 'external-context corpus index <path>... --out <file>'],
      [['corpus', '-h'], 'external-context corpus serve --db <file>'],
      [['corpus', 'index', '--help'], 'external-context corpus index <path>... --out <file>'],
      [['corpus', 'serve', '--listen', 'bad', '-h'], 'external-context corpus serve --db <file> --token-env <NAME>... [--listen <host:port>]'],
    ] as const) {
      const result = await cli([...args]);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain(usage);
      for (const heading of ['USAGE', 'OPTIONS', 'EXIT CODES', 'EXAMPLES']) expect(result.stdout).toContain(`\n${heading}\n`);
    }
    expect((await cli(['corpus', 'serve', '--help'])).stdout).toContain('(127.0.0.1:8787)');
  });
});

describe('corpus usage errors (exit 2, one stderr line)', () => {
  test('a missing or unknown subcommand', async () => {
    expectUsage(await cli(['corpus']), 'Missing subcommand: index, serve or stats. Run "external-context corpus --help".');
    expectUsage(await cli(['corpus', 'search']), 'Unknown subcommand: use index, serve or stats. Run "external-context corpus --help".');
  });

  test('corpus index without --out, without a path, or with an unknown flag', async () => {
    expectUsage(await cli(['corpus', 'index', 'docs']), 'Option --out needs the path of the index file to write. Run "external-context corpus index --help".');
    expectUsage(await cli(['corpus', 'index', '--out', 'x.sqlite']), 'Give at least one file or folder to index. Run "external-context corpus index --help".');
    expectUsage(await cli(['corpus', 'index', 'docs', '--out', 'x.sqlite', '--force']), 'Unknown option --force. Run "external-context corpus index --help".');
  });

  test('corpus serve without --db or --token-env, with a bad --listen, or with a stray argument', async () => {
    expectUsage(await cli(['corpus', 'serve', '--token-env', TOKEN_ENV]), 'Option --db needs the path of an index made by corpus index. Run "external-context corpus serve --help".');
    expectUsage(await cli(['corpus', 'serve', '--db', 'x.sqlite']), 'Option --token-env needs the name of the variable that holds the token. Run "external-context corpus serve --help".');
    expectUsage(
      await cli(['corpus', 'serve', '--db', 'x.sqlite', '--token-env', TOKEN_ENV, '--log-format', 'xml']),
      'Option --log-format needs json, text or none. Run "external-context corpus serve --help".',
    );
    expectUsage(
      await cli(['corpus', 'serve', '--db', 'x.sqlite', '--token-env', TOKEN_ENV, '--metrics-listen', '9464']),
      'Option --metrics-listen needs host:port or [IPv6]:port with a port from 0 to 65535. Run "external-context corpus serve --help".',
    );
    expectUsage(await cli(['corpus', 'stats']), 'Option --db needs the path of an index made by corpus index. Run "external-context corpus stats --help".');
    for (const listen of ['8787', '::1:80', '127.0.0.1:70000']) {
      expectUsage(
        await cli(['corpus', 'serve', '--db', 'x.sqlite', '--token-env', TOKEN_ENV, '--listen', listen]),
        'Option --listen needs host:port or [IPv6]:port with a port from 0 to 65535. Run "external-context corpus serve --help".',
      );
    }
    expectUsage(await cli(['corpus', 'serve', '--db', 'x.sqlite', '--token-env', TOKEN_ENV, 'extra']), 'Unexpected argument. Run "external-context corpus serve --help".');
  });
});

describe('corpus index', () => {
  test('indexes files and folders, warns about each skipped file, and ends with a summary on stderr', async () => {
    const result = await cli(['corpus', 'index', 'docs', 'notes.txt', '--out', 'index.sqlite']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('[external-context] Skipped docs/logo.png: binary file (U+0000 or not UTF-8).\n' + '[external-context] Indexed 2 files into 3 chunks; skipped 1 file.\n');
    expect(existsSync(join(dir, 'index.sqlite'))).toBe(true);
  });

  test.skipIf(process.platform !== 'linux')('a file name that is not UTF-8 is skipped with a warning naming its folder; the run goes on', async () => {
    const odd = join(dir, 'odd');
    mkdirSync(odd);
    writeFileSync(join(odd, 'fine.md'), '# Fine\n\nA readable note.');
    // Linux names are bytes: 0xFF can never start a UTF-8 sequence.
    writeFileSync(Buffer.concat([Buffer.from(`${odd}/bad-`), Buffer.from([0xff]), Buffer.from('.md')]), '# Bad\n\nNot indexed.');
    const result = await cli(['corpus', 'index', 'odd', '--out', 'odd.sqlite']);
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr: '[external-context] Skipped odd/?: an entry of this folder has a name that is not UTF-8, so it cannot be an id.\n' + '[external-context] Indexed 1 file into 1 chunk; skipped 1 file.\n',
    });
  });

  test('leaves markup files of a folder out, one warning per extension with its count, unless --include names them', async () => {
    const site = join(dir, 'site');
    mkdirSync(join(site, 'css'), { recursive: true });
    writeFileSync(join(site, 'git-log.txt'), 'Show commit logs.');
    writeFileSync(join(site, 'git-log.html'), '<!DOCTYPE html><html><body><p>Show commit logs.</p></body></html>');
    writeFileSync(join(site, 'git-tag.HTML'), '<!DOCTYPE html><html></html>');
    writeFileSync(join(site, 'css', 'style.css'), 'body { margin: 0; }');
    writeFileSync(join(site, 'data.json'), '{"a": 1}');
    const result = await cli(['corpus', 'index', 'site', '--out', 'site.sqlite']);
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr: [
        "[external-context] Skipped 1 .css file in the folders: markup or code, not prose; give --include '*.css' to index them.",
        "[external-context] Skipped 1 .json file in the folders: markup or code, not prose; give --include '*.json' to index them.",
        "[external-context] Skipped 2 .html files in the folders: markup or code, not prose; give --include '*.html' to index them.",
        '[external-context] Indexed 1 file into 1 chunk; skipped 4 files.',
        '',
      ].join('\n'),
    });
    // --include takes what it names, as plain text; a markup file named directly is taken too.
    const included = await cli(['corpus', 'index', 'site', '--include', '*.txt', '--include', '*.html', '--out', 'site.sqlite']);
    expect(included).toEqual({ code: 0, stdout: '', stderr: '[external-context] Indexed 3 files into 3 chunks; skipped 0 files.\n' });
    const direct = await cli(['corpus', 'index', join('site', 'css', 'style.css'), '--out', 'site.sqlite']);
    expect(direct).toEqual({ code: 0, stdout: '', stderr: '[external-context] Indexed 1 file into 1 chunk; skipped 0 files.\n' });
  });

  test('shows files done / total on stderr only when it is a terminal', async () => {
    const result = await cli(['corpus', 'index', 'notes.txt', '--out', 'tty.sqlite'], { stderrIsTty: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('[external-context] Indexing: 1/1 files');
    expect(result.stderr.endsWith('[external-context] Indexed 1 file into 1 chunk; skipped 0 files.\n')).toBe(true);
  });

  test('exits 1 naming the argument when an input path does not exist', async () => {
    const result = await cli(['corpus', 'index', 'missing-folder', '--out', 'x.sqlite']);
    expect(result).toEqual({ code: 1, stdout: '', stderr: '[external-context] The input path missing-folder does not exist or cannot be read.\n' });
    expect(existsSync(join(dir, 'x.sqlite'))).toBe(false);
  });

  test('exits 1 when --out cannot be written', async () => {
    const result = await cli(['corpus', 'index', 'notes.txt', '--out', join('no-such-folder', 'x.sqlite')]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: '[external-context] The --out file cannot be written.\n' });
  });
});

describe('corpus serve startup failures (exit 1, nothing on stdout)', () => {
  const serveArgs = ['corpus', 'serve', '--db', 'index.sqlite', '--token-env', TOKEN_ENV, '--listen', '127.0.0.1:0'];
  const TOKEN_LINE = '[external-context] The service token is unavailable: the variable given to --token-env must hold a non-blank value without control characters.\n';

  test('a pasted token given to --token-env is named as such (as check does), never echoed', async () => {
    await cli(['corpus', 'index', 'docs', '--out', 'index.sqlite']);
    const pasted = 'f3a9c2e71b0d4e6a8c5f2b9d7e1a3c6b';
    const result = await cli(['corpus', 'serve', '--db', 'index.sqlite', '--token-env', pasted, '--listen', '127.0.0.1:0'], { env: {} });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        '[external-context] The service token is unavailable: --token-env names a variable that is not set; the name does not look like a variable name: was the token itself pasted there? Pass the name of the variable that holds the token, and rotate the token: a command line is visible to other users.\n',
    });
    expect(result.stderr).not.toContain(pasted);
  });

  test('a token variable that is unset, blank, a ${NAME} placeholder or holds a control character; never naming it', async () => {
    await cli(['corpus', 'index', 'docs', '--out', 'index.sqlite']);
    for (const env of [{}, { [TOKEN_ENV]: '' }, { [TOKEN_ENV]: ' \t ' }, { [TOKEN_ENV]: '${CANARY_PLACEHOLDER}' }, { [TOKEN_ENV]: `${TOKEN}\n` }, { [TOKEN_ENV]: `a\u007fb` }]) {
      const result = await cli(serveArgs, { env });
      expect(result).toEqual({ code: 1, stdout: '', stderr: TOKEN_LINE });
      expect(result.stderr).not.toContain(TOKEN_ENV);
      expect(result.stderr).not.toContain(TOKEN);
    }
  });

  test('with several --token-env, the failing one is named by position, never by name or value', async () => {
    await cli(['corpus', 'index', 'docs', '--out', 'index.sqlite']);
    const other = 'CANARY_CORPUS_OTHER_VAR';
    const args = ['corpus', 'serve', '--db', 'index.sqlite', '--token-env', TOKEN_ENV, '--token-env', other, '--listen', '127.0.0.1:0'];
    const unset = await cli(args, { env: { [TOKEN_ENV]: TOKEN } });
    expect(unset).toEqual({
      code: 1,
      stdout: '',
      stderr: '[external-context] The service token is unavailable: the variable given to the second --token-env must hold a non-blank value without control characters.\n',
    });
    const blankFirst = await cli(args, { env: { [TOKEN_ENV]: ' ', [other]: TOKEN } });
    expect(blankFirst.stderr).toContain('the variable given to the first --token-env must hold');
    const pasted = 'f3a9c2e71b0d4e6a8c5f2b9d7e1a3c6b';
    const third = await cli([...args, '--token-env', pasted], { env: { [TOKEN_ENV]: TOKEN, [other]: TOKEN } });
    expect(third.stderr).toStartWith('[external-context] The service token is unavailable: the third --token-env names a variable that is not set; ');
    for (const result of [unset, blankFirst, third]) {
      for (const secret of [TOKEN_ENV, other, TOKEN, pasted]) expect(result.stderr).not.toContain(secret);
    }
  });

  test('inherited names such as __proto__ and toString are not found through the prototype', async () => {
    for (const name of ['__proto__', 'toString', 'constructor']) {
      const result = await cli(['corpus', 'serve', '--db', 'index.sqlite', '--token-env', name, '--listen', '127.0.0.1:0']);
      // Unset, so refused; these names do not look like variable names, so the pasted-token line.
      expect(result).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^\[external-context\] The service token is unavailable: --token-env names a variable that is not set; /u) });
    }
  });

  test('a --listen address in use or not on this host names the address and the cause', async () => {
    await cli(['corpus', 'index', 'docs', '--out', 'index.sqlite']);
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const inUse = await cli(['corpus', 'serve', '--db', 'index.sqlite', '--token-env', TOKEN_ENV, '--listen', `127.0.0.1:${port}`], { env: { [TOKEN_ENV]: TOKEN } });
      expect(inUse).toEqual({ code: 1, stdout: '', stderr: `[external-context] The service cannot listen on 127.0.0.1:${port}: address in use.\n` });
    } finally {
      blocker.close();
    }
    // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never assigned to a local interface.
    const foreign = await cli(['corpus', 'serve', '--db', 'index.sqlite', '--token-env', TOKEN_ENV, '--listen', '192.0.2.77:0'], { env: { [TOKEN_ENV]: TOKEN } });
    expect(foreign).toEqual({ code: 1, stdout: '', stderr: '[external-context] The service cannot listen on 192.0.2.77:0: cannot assign address.\n' });
  });

  test('a --db file that is missing or not an index', async () => {
    for (const db of ['missing.sqlite', 'notes.txt']) {
      const result = await cli(['corpus', 'serve', '--db', db, '--token-env', TOKEN_ENV, '--listen', '127.0.0.1:0'], { env: { [TOKEN_ENV]: TOKEN } });
      expect(result).toEqual({ code: 1, stdout: '', stderr: '[external-context] The --db file cannot be opened as an index made by corpus index.\n' });
    }
  });
});

describe('CORPUS_RUNTIME_MESSAGE', () => {
  // Node 20 cannot run the TypeScript sources; the gate itself is tested in test/runtime/sqlite.test.ts.
  test('is the spec sentence', () => {
    expect(`[external-context] ${CORPUS_RUNTIME_MESSAGE}`).toBe('[external-context] corpus commands need Bun, Deno, or Node.js 22.13 or later.');
  });
});

// Node.js 22.13 is the first release with node:sqlite unflagged (spec README, "Runtimes").
const [NODE_MAJOR = 0, NODE_MINOR = 0] = (spawnSync('node', ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim() ?? '').split('.').map(Number);
const NODE_HAS_SQLITE = NODE_MAJOR > 22 || (NODE_MAJOR === 22 && NODE_MINOR >= 13);

const SQLITE_MISSING = proves('sqlite-missing', ['node-bundle']);
const SQLITE = proves('sqlite', ['executable', 'deno-bundle']);

describe.skipIf(NODE_HAS_SQLITE)(`corpus in the bundle under a Node.js without node:sqlite (dist/external-context.mjs) ${SQLITE_MISSING('node-bundle')}`, () => {
  requireBuilt(BUNDLE); // a missing bundle fails the file, naming npm run build
  test('both commands exit 1 with the runtime message', () => {
    for (const args of [
      ['corpus', 'index', 'docs', '--out', 'node.sqlite'],
      ['corpus', 'serve', '--db', 'index.sqlite', '--token-env', TOKEN_ENV, '--listen', '127.0.0.1:0'],
    ]) {
      const result = spawnSync('node', [BUNDLE, ...args], { cwd: dir, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', [TOKEN_ENV]: TOKEN } });
      expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
        status: 1,
        stdout: '',
        stderr: `[external-context] ${CORPUS_RUNTIME_MESSAGE}\n`,
      });
    }
    expect(existsSync(join(dir, 'node.sqlite'))).toBe(false);
  });
});

type Child = ChildProcessByStdio<null, Readable, Readable>;

function startServe(command: string, args: string[]): { child: Child; url: Promise<string>; exit: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(command, args, { cwd: dir, env: { PATH: process.env['PATH'] ?? '', [TOKEN_ENV]: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    child.once('exit', () => reject(new Error(`serve exited early: ${stderr}`)));
  });
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, url, exit };
}

/** The JSON request lines of `corpus serve` without their time and ms. */
function requestLines(stderr: string): unknown[] {
  return stderr
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const { time, ms, ...rest } = JSON.parse(line) as { time: string; ms: number };
      expect(typeof time === 'string' && typeof ms === 'number').toBe(true);
      return rest;
    });
}

async function searchOnce(url: string): Promise<string[]> {
  const response = await fetch(`${url}/v1/context/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'install widget', limit: 5 }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: { id: string }[] }).items.map((item) => item.id);
}

const serveFlags = ['serve', '--db', 'index.sqlite', '--token-env', TOKEN_ENV];

// Process cases run the shipped executable (no source row: CONTRIBUTING.md), Deno the bundle.
describe('corpus serve as a process (the compiled executable)', () => {
  requireBuilt(EXECUTABLE);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`prints only the base URL on stdout, serves, and exits 0 on ${signal}`, async () => {
      await cli(['corpus', 'index', 'docs', '--out', 'index.sqlite']);
      const serve = startServe(EXECUTABLE, ['corpus', ...serveFlags, '--listen', '127.0.0.1:0']);
      const url = await serve.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await searchOnce(url))[0]).toBe('docs/guide.md#guide:1');
      serve.child.kill(signal);
      const { code, stdout, stderr } = await serve.exit;
      expect(code).toBe(0);
      expect(stdout).toBe(`${url}\n`);
      // docs/design/providers.md §8.2a: one request line, never the query or the token.
      expect(requestLines(stderr)).toEqual([{ status: 200, outcome: 'ok', items: 2 }]);
      for (const secret of [TOKEN, 'install widget']) expect(stderr).not.toContain(secret);
    });
  }

  test('listens on [::1]:0 and prints the bracketed URL', async () => {
    await cli(['corpus', 'index', 'docs', '--out', 'index.sqlite']);
    const serve = startServe(EXECUTABLE, ['corpus', ...serveFlags, '--listen', '[::1]:0']);
    const url = await serve.url;
    expect(url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect(await searchOnce(url)).toContain('docs/guide.md#guide:1');
    serve.child.kill('SIGTERM');
    expect((await serve.exit).code).toBe(0);
  });
});

// corpus index without --allow-write (exit 1, the one permission line, nothing written) is in
// test/bundle/deno.test.ts with Deno's other permission checks.
describe(`corpus under Deno (the ESM bundle) ${SQLITE('deno-bundle')}`, () => {
  const BUNDLE = requireBuilt(bundlePath());
  const BASE = ['run', '--no-prompt', '--allow-read', '--allow-env', '--allow-net', BUNDLE];

  test('corpus index with --allow-write, then corpus serve with the base permissions until SIGTERM', async () => {
    const index = spawnSync(DENO, ['run', '--no-prompt', '--allow-read', '--allow-env', '--allow-net', '--allow-write', BUNDLE, 'corpus', 'index', 'docs', '--out', 'deno.sqlite'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(index.status).toBe(0);
    const serve = startServe(DENO, [...BASE, 'corpus', 'serve', '--db', 'deno.sqlite', '--token-env', TOKEN_ENV, '--listen', '127.0.0.1:0']);
    const url = await serve.url;
    expect((await searchOnce(url))[0]).toBe('docs/guide.md#guide:1');
    serve.child.kill('SIGTERM');
    const { code, stdout, stderr } = await serve.exit;
    expect({ code, stdout, lines: requestLines(stderr) }).toEqual({ code: 0, stdout: `${url}\n`, lines: [{ status: 200, outcome: 'ok', items: 2 }] });
  });
});

describe(`corpus in the compiled executable (dist/) ${SQLITE('executable')}`, () => {
  requireBuilt(EXECUTABLE); // a missing executable fails the file, naming npm run build
  test('indexes, serves, and exits 0 on SIGTERM', async () => {
    const index = spawnSync(EXECUTABLE, ['corpus', 'index', 'docs', '--out', 'exe.sqlite'], { cwd: dir, encoding: 'utf8' });
    expect(index.status).toBe(0);
    const serve = startServe(EXECUTABLE, ['corpus', 'serve', '--db', 'exe.sqlite', '--token-env', TOKEN_ENV, '--listen', '127.0.0.1:0']);
    const url = await serve.url;
    expect((await searchOnce(url))[0]).toBe('docs/guide.md#guide:1');
    serve.child.kill('SIGTERM');
    expect((await serve.exit).code).toBe(0);
  });
});
