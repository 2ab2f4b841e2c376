// `npm run test:targets` (issue 16.5; docs/design/README.md, "Releases"): the cross-compiled
// executables of `npm run build:all` run on this Linux x64 machine through emulators:
// - linux-arm64 under qemu-user-static, with the Debian arm64 glibc (libc6-arm64-cross);
// - windows-x64 under Wine 8 (Debian wine, whose dependency wine64 alone provides no `wine`). Wine 8 lacks bcryptprimitives.dll, which Bun's
//   Windows runtime imports (ProcessPrng). This tier builds a TEST-ONLY stub of that DLL from
//   test/targets/bcryptprimitives-stub.c with MinGW-w64 and puts it next to a copy of the
//   executable. Nothing of it ships.
// darwin is covered by the signature verifier (test/build/macho-signature.test.ts); there is no
// emulator for it here.
// Each target: --version, check --search against a loopback provider, a stdio session with the
// SDK client (on Windows only inside Wine, through conformance --command: see below),
// conformance --command; Windows also corpus index. Slow (emulation), so kept out
// of `npm test`; `.ci/run` runs it. The tools each target looks for are its rows of .ci/tools.tsv
// (test/support/ci-tools.ts), which .ci/install-tools installs: missing ones skip the tier with a
// visible reason, and fail it under CI=true.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { hostToolTier } from '../support/ci-tools.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { registerToolGate } from '../support/tool-tier.ts';

const TOKEN_ENV = 'EC_TARGET_TOKEN';
const TOKEN = 'ec-target-token-5Rt8Nq';
const ITEM = { id: 'doc-1', content: 'Emulated targets answer.' };
/** Emulated start-up is slow on a loaded 2-core machine: a hang guard, not an expectation. */
const STEP_TIMEOUT_MS = 300_000;
const ARM64_SYSROOT = '/usr/aarch64-linux-gnu';

/** How to run one target here. */
interface Target {
  readonly name: string;
  readonly file: string;
  /** What is missing to run it, or undefined, and how to provide it. */
  readonly missing: string | undefined;
  readonly remedy: string;
  /** The emulator command and its arguments before the executable's own. */
  prefix(exe: string): [string, ...string[]];
  /** The path the executable sees for a host path. */
  hostPath(path: string): string;
  /** Extra environment for the emulator. */
  env(): Record<string, string>;
  /** Places what the target needs; returns the executable path to run. */
  prepare(dir: string): string;
}

const distFile = (name: string): string => join(REPO_ROOT, 'dist', name);

/** What the target lacks: its executable first, then its host tools (their rows of .ci/tools.tsv). */
function targetGate(file: string, tier: string): { missing: string | undefined; remedy: string } {
  if (!existsSync(distFile(file))) return { missing: `dist/${file} not built`, remedy: 'run npm run build:all' };
  const tools = hostToolTier(tier);
  return { missing: tools.missing, remedy: tools.remedy };
}
let winePrefix = '';

const TARGETS: readonly Target[] = [
  {
    name: 'linux-arm64 (qemu-user-static)',
    file: distFile('external-context-linux-arm64'),
    ...targetGate('external-context-linux-arm64', 'targets-arm64'),
    prefix: (exe) => ['qemu-aarch64-static', '-L', ARM64_SYSROOT, exe],
    hostPath: (path) => path,
    env: () => ({}),
    prepare: () => distFile('external-context-linux-arm64'),
  },
  {
    name: 'windows-x64 (Wine)',
    file: distFile('external-context-windows-x64.exe'),
    ...targetGate('external-context-windows-x64.exe', 'targets-windows'),
    prefix: (exe) => ['wine', exe],
    hostPath: (path) => `Z:${path.replace(/\//g, '\\')}`,
    env: () => ({ WINEPREFIX: winePrefix, WINEDEBUG: '-all' }),
    prepare: (dir) => {
      const stubDir = join(REPO_ROOT, 'test', 'targets');
      const build = spawnSync(
        'x86_64-w64-mingw32-gcc',
        ['-shared', '-O2', '-o', join(dir, 'bcryptprimitives.dll'), join(stubDir, 'bcryptprimitives-stub.c'), join(stubDir, 'bcryptprimitives-stub.def'), '-ladvapi32'],
        { encoding: 'utf8' },
      );
      if (build.status !== 0) throw new Error(`building the test-only bcryptprimitives.dll stub failed: ${build.stderr}`);
      const exe = join(dir, 'external-context-windows-x64.exe');
      copyFileSync(distFile('external-context-windows-x64.exe'), exe);
      return exe;
    },
  },
];

let fake: GenericHttpFake;

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: TOKEN, items: [ITEM] });
  winePrefix = (await makeTempDir('ec-wine-')).path;
});
afterAll(async () => {
  await fake.close();
  await removeTempDirs();
});

for (const target of TARGETS) {
  const tier = { name: target.name, missing: target.missing, remedy: target.remedy };
  registerToolGate(tier);

  describe.skipIf(tier.missing !== undefined)(target.name, () => {
    let dir = '';
    let exe = '';
    let config = '';
    const run = (args: readonly string[], options: { stdin?: string } = {}) => {
      const [command, ...prefix] = target.prefix(exe);
      return runProcess(command, [...prefix, ...args], {
        env: cleanEnv({ [TOKEN_ENV]: TOKEN, ...target.env() }),
        timeoutMs: STEP_TIMEOUT_MS,
        ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
      });
    };

    beforeAll(async () => {
      dir = (await makeTempDir('ec-target-')).path;
      exe = target.prepare(dir);
      config = await writeConfigFile({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: TOKEN_ENV } }, { dir });
    }, STEP_TIMEOUT_MS);

    test(
      '--version names the version and the commit',
      async () => {
        const result = await run(['--version']);
        expect(result.stdout).toMatch(/^external-context \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}|unknown)\)\r?\n$/);
        expect(result.code).toBe(0);
      },
      STEP_TIMEOUT_MS,
    );

    test(
      'check --search runs one real search against the loopback provider',
      async () => {
        const before = fake.requests.length;
        const result = await run(['check', '--config', target.hostPath(config), '--search', 'emulated targets']);
        expect(result.code).toBe(0);
        expect(fake.requests.length).toBe(before + 1);
      },
      STEP_TIMEOUT_MS,
    );

    // Under Wine 8 a host pipe reaches the Windows process as a Unix-fd handle that Bun's stdin
    // reader cannot open (EBADF in getReader, seen with a pipe and with a regular file). A pipe
    // made inside Wine works: conformance --command below is the SDK client talking to the
    // Windows executable over such a pipe. Real Windows is not affected.
    const hostSession = target.name.startsWith('windows') ? test.skip : test;
    hostSession(
      'a stdio session with the SDK client lists context_search and answers it',
      async () => {
        const [command, ...prefix] = target.prefix(exe);
        const server = await spawnServer(command, [...prefix, 'serve', '--config', target.hostPath(config)], cleanEnv({ [TOKEN_ENV]: TOKEN, ...target.env() }));
        try {
          const tools = await server.client.listTools(undefined, { timeout: STEP_TIMEOUT_MS });
          expect(tools.tools.map((tool) => tool.name)).toContain('context_search');
          const result = await server.client.callTool({ name: 'context_search', arguments: { query: 'emulated targets' } }, undefined, { timeout: STEP_TIMEOUT_MS });
          expect(JSON.stringify(result.content)).toContain(ITEM.content);
          expect(result.isError ?? false).toBe(false);
        } finally {
          await server.close();
        }
      },
      STEP_TIMEOUT_MS,
    );

    test(
      'conformance --command passes against its own serve',
      async () => {
        // The server the runner spawns is the same target executable, under the same emulator.
        const serve = [...target.prefix(exe).slice(1), 'serve', '--config', config];
        const command = target.name.startsWith('windows')
          ? `"${target.hostPath(exe)}" serve --config "${target.hostPath(config)}"`
          : `${target.prefix(exe)[0]} ${serve.map((word) => `"${word}"`).join(' ')}`;
        const result = await run(['conformance', '--command', command, '--json']);
        expect(result.code).toBe(0);
        expect((JSON.parse(result.stdout) as { ok?: unknown }).ok).toBe(true);
      },
      STEP_TIMEOUT_MS,
    );

    if (target.name.startsWith('windows')) {
      test(
        'corpus index writes the index and leaves no temporary file (statements finalized before the rename)',
        async () => {
          const input = join(dir, 'corpus');
          mkdirSync(input);
          writeFileSync(join(input, 'a.md'), '# Alpha\n\nWine renames only closed files.\n');
          const out = join(dir, 'index', 'corpus.sqlite');
          mkdirSync(join(dir, 'index'));
          const result = await run(['corpus', 'index', target.hostPath(input), '--out', target.hostPath(out)]);
          expect(result.stderr).not.toContain('cannot be written');
          expect(result.code).toBe(0);
          expect(readdirSync(join(dir, 'index'))).toEqual(['corpus.sqlite']);
        },
        STEP_TIMEOUT_MS,
      );
    }
  });
}
