// Every fenced shell block marked ```sh title="tested" in the guides runs here, in document
// order, against loopback services: the real compiled executable on PATH as `external-context`,
// the strict fakes of test/fakes/ for each provider, and temporary folders in place of the
// administrator paths. A block passes when bash exits 0 (`-euo pipefail`) and its output shows
// the walkthrough's end state (docs issue, "Kept true by tests").
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { startMem0PlatformFake, type Mem0PlatformFake } from '../fakes/mem0-platform.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { cleanEnv } from '../support/env.ts';
import { exePath, REPO_ROOT, requireBuilt } from '../support/paths.ts';
import { makeTempDir, type TempDir } from '../support/temp-dir.ts';
import { markdownFiles, testedBlocks, type TestedBlock } from '../support/markdown.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

// Each block starts processes and waits for them; these are hang guards, not targets.
setDefaultTimeout(LIVENESS_MS);
const BLOCK_HANG_GUARD_MS = LIVENESS_MS;

const TOKEN = 'docs-test-credential';
const USER_ID = 'u1';
const RECORDS = [
  { id: 'policy-1', text: 'Use the reviewed deployment workflow.' },
  { id: 'policy-2', text: 'Deployment policy: release on Tuesdays after review.' },
];
/** Fixed ports the guides name; each becomes a free loopback port. */
const GUIDE_PORTS = ['8787', '8800', '8801', '8802'] as const;
/** Administrator paths the guides name; each becomes a folder under the test's root. */
const GUIDE_DIRS = ['/etc/external-context', '/var/lib/external-context', '/run/external-context', '/srv/team-docs'] as const;

const blocks: TestedBlock[] = markdownFiles(REPO_ROOT).flatMap((file) => testedBlocks(file));

let root: TempDir;
let generic: GenericHttpFake;
let platform: Mem0PlatformFake;
let server: Mem0ServerFake;
let polardb: Mem0ServerFake;
let substitutions: [string | RegExp, string][] = [];
let binDir = '';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  requireBuilt(exePath()); // a missing executable fails the file, naming npm run build
  root = await makeTempDir('ec-docs-');
  binDir = join(root.path, 'bin');
  mkdirSync(binDir);
  symlinkSync(exePath(), join(binDir, 'external-context'));
  for (const dir of GUIDE_DIRS) mkdirSync(join(root.path, dir), { recursive: true });
  writeFileSync(join(root.path, '/srv/team-docs', 'deployment.md'), '# Deployment policy\n\nRelease on Tuesdays after review.\n\n## Rollback\n\nSwitch the link back.\n');
  generic = await startGenericHttpFake({
    token: TOKEN,
    items: RECORDS.map((record) => ({ id: record.id, content: record.text, title: 'Deployment policy' })),
  });
  platform = await startMem0PlatformFake({
    apiKey: TOKEN,
    memories: RECORDS.map((record) => ({ id: record.id, memory: record.text, app_id: 'repository-memory' })),
  });
  server = await startMem0ServerFake({
    apiKey: TOKEN,
    routes: 'stock',
    memories: RECORDS.map((record) => ({ id: record.id, memory: record.text, user_id: USER_ID, agent_id: 'qwen-code' })),
  });
  polardb = await startMem0ServerFake({
    apiKey: TOKEN,
    routes: 'polardb',
    memories: RECORDS.map((record) => ({ id: record.id, memory: record.text, user_id: USER_ID })),
  });
  const ports = await Promise.all(GUIDE_PORTS.map(() => freePort()));
  // Longest, most specific first: whole origins before bare ports and paths.
  substitutions = [
    ['https://context.example.com', generic.origin],
    ['https://api.mem0.ai', platform.origin],
    ['https://<your-mem0-endpoint>', server.origin],
    ['http://127.0.0.1:8080', polardb.origin],
    ['<your-user-id>', USER_ID],
    ...GUIDE_PORTS.map((port, index): [RegExp, string] => [new RegExp(`\\b${port}\\b`, 'g'), String(ports[index])]),
    ...GUIDE_DIRS.map((dir): [string, string] => [dir, join(root.path, dir)]),
  ];
});

afterAll(async () => {
  await Promise.all([generic?.close(), platform?.close(), server?.close(), polardb?.close()]);
  await root?.remove();
});

function substitute(script: string): string {
  let out = script;
  for (const [from, to] of substitutions) out = typeof from === 'string' ? out.replaceAll(from, to) : out.replace(from, to);
  return out;
}

interface BlockResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs one block with bash in its own process group, then ends whatever it left running. */
function runBlock(script: string): Promise<BlockResult> {
  return new Promise((resolve, reject) => {
    const env = cleanEnv({
      PATH: `${binDir}${delimiter}${process.env['PATH'] ?? ''}`,
      CONTEXT_API_TOKEN: TOKEN,
      MEM0_API_KEY: TOKEN,
    });
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: root.path, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const endGroup = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    // Hang guard, not a target: a block waiting for a service that never came up is ended
    // (with everything it started) before the test's own timeout would leave it running.
    const guard = setTimeout(() => endGroup('SIGKILL'), BLOCK_HANG_GUARD_MS);
    child.once('error', reject);
    // 'exit', not 'close': a service the block left in the background still holds stderr open.
    child.once('exit', (code) => {
      clearTimeout(guard);
      endGroup('SIGTERM');
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') });
    });
  });
}

// The blocks are POSIX shell; bash runs them.
describe.skipIf(process.platform === 'win32')('tested shell blocks in the guides', () => {
  test('the deployment guide has the corpus, Generic and two-replica walkthroughs as tested blocks', () => {
    const deploy = blocks.filter((block) => block.file.endsWith(join('docs', 'deploy.md')));
    expect(deploy.some((block) => block.code.includes('corpus serve') && block.code.includes('check --config'))).toBe(true);
    expect(deploy.some((block) => block.code.includes('https://context.example.com') && block.code.includes('--search'))).toBe(true);
    expect(deploy.some((block) => block.code.includes('serve --http') && block.code.includes('conformance --url'))).toBe(true);
  });

  for (const block of blocks) {
    const name = `${block.file.slice(REPO_ROOT.length + 1)}:${block.line} runs to exit 0`;
    test(name, async () => {
      const result = await runBlock(substitute(block.code));
      if (result.code !== 0) {
        throw new Error(`exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
      }
      if (/check .*--search/.test(block.code)) expect(result.stdout).toMatch(/^Latency: \d+ ms$/m);
      if (block.code.includes('conformance')) {
        expect(result.stdout).toContain('PASS search-result: ok');
        expect(result.stdout).not.toContain('FAIL ');
      }
      if (block.code.includes('probe')) expect(result.stdout).not.toContain('preset-mismatch');
    });
  }
});

test('markdown.ts finds the tested blocks of this file format', () => {
  const sample = join(REPO_ROOT, 'docs', 'deploy.md');
  expect(readFileSync(sample, 'utf8')).toContain('```sh title="tested"');
  expect(testedBlocks(sample).length).toBeGreaterThanOrEqual(3);
});
