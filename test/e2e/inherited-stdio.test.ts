// Inherited stdio left as found (docs/design/README.md, "Inherited stdio"), on the compiled
// executable. Each command runs inside `bash -c` with fds 0–2 inherited from bash; afterwards
// bash reads the open file descriptions' flags from /proc (the deterministic proof) and runs
// the issue's `head -c 2000000` into the same pipe (the symptom a later writer would hit).
// bash runs with --norc: its stdin is a socket here (Bun's child_process pipes), and bash then
// reads ~/.bashrc as if sshd had started it (root's on the CI machine runs `pyenv init`, 0.6 s of
// CPU per shell: 13 of this file's 14.6 s).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { exePath } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

const TOKEN_ENV = 'EC_STDIO_TOKEN';
const TOKEN = 'ec-stdio-token-7Qm2Lw';
const O_NONBLOCK = 0o4000;
const HEAD_BYTES = 2_000_000;

let fake: GenericHttpFake;
let config: string;

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: TOKEN, items: [{ id: 'doc-1', content: 'Flags kept.' }] });
  config = await writeConfigFile({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: TOKEN_ENV } });
});
afterAll(async () => {
  await fake.close();
  await removeTempDirs();
});

/** Prints `fd<N> <octal flags>` for fds 0–2 of the shell, then runs head into stdout. */
const AFTER = `for fd in 0 1 2; do echo "fd$fd $(sed -n 's/^flags:[[:space:]]*//p' /proc/self/fdinfo/$fd)" >&2; done; head -c ${HEAD_BYTES} /dev/zero`;

function parseFlags(stderr: string): Map<number, number> {
  const flags = new Map<number, number>();
  for (const match of stderr.matchAll(/^fd([0-2]) ([0-7]+)$/gm)) flags.set(Number(match[1]), Number.parseInt(match[2] ?? '', 8));
  return flags;
}

const COMMANDS: ReadonlyArray<readonly [string, string]> = [
  ['serve', `"$EXE" serve --config "$CONFIG" < /dev/null`],
  ['hook auto-recall', `printf '{}' | "$EXE" hook auto-recall --config "$CONFIG"`],
  ['hook write-confirmation', `printf '{}' | "$EXE" hook write-confirmation`],
  // A run that leaves the guard for later and then writes its help through the stderr stream.
  ['hook write-confirmation --help', `printf '{}' | "$EXE" hook write-confirmation --help`],
  ['check --search', `"$EXE" check --config "$CONFIG" --search flags`],
  ['--version', `"$EXE" --version`],
];

// The cases run side by side: each has its own bash, pipes and process, and none counts requests.
describe.concurrent.skipIf(process.platform !== 'linux')('fds 0–2 keep their flags (Linux /proc)', () => {
  for (const [name, command] of COMMANDS) {
    test(
      `${name}: no O_NONBLOCK left behind; head writes all ${HEAD_BYTES} bytes into the same pipe`,
      async () => {
        // The command inherits bash's stdin, stdout and stderr (all pipes from this test), except
        // where its own stdin is redirected; stdin stays open so a flag change on it would show.
        const result = await runProcess('bash', ['--norc', '-c', `${command}; ${AFTER}`], {
          env: cleanEnv({ EXE: exePath(), CONFIG: config, [TOKEN_ENV]: TOKEN }),
          stdin: 'open',
        });
        const flags = parseFlags(result.stderr);
        expect([...flags.keys()].sort()).toEqual([0, 1, 2]);
        for (const [, value] of flags) expect(value & O_NONBLOCK).toBe(0);
        expect(result.stderr).not.toContain('Resource temporarily unavailable');
        expect(result.stdout.length).toBeGreaterThanOrEqual(HEAD_BYTES);
        expect(result.code).toBe(0);
      },
      LIVENESS_MS,
    );
  }

  test(
    'serve ended by SIGTERM: the flag it set is cleared and the exit status still names the signal',
    async () => {
      // serve runs in the background with bash's stdin; once its answer to initialize is on
      // stdout it has set up its streams, and the test sends SIGTERM through bash.
      const script = `"$EXE" serve --config "$CONFIG" <&0 & pid=$!; echo "pid=$pid" >&2; wait $pid; echo "status=$?" >&2; ${AFTER}`;
      const child = Bun.spawn(['bash', '--norc', '-c', script], {
        env: cleanEnv({ EXE: exePath(), CONFIG: config, [TOKEN_ENV]: TOKEN }),
        stdin: 'pipe',
        stdout: 'pipe',
        stderr: 'pipe',
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
      child.stdin.flush();
      const stdout = child.stdout.getReader();
      const stderrText = new Response(child.stderr).text();
      let seen = '';
      while (!seen.includes('\n')) {
        const chunk = await stdout.read();
        if (chunk.done) break;
        seen += new TextDecoder().decode(chunk.value);
      }
      expect(seen).toContain('"id":1');
      const pidText = await waitForPid(child.pid);
      const during = Number.parseInt((await Bun.file(`/proc/${pidText}/fdinfo/1`).text()).match(/^flags:\s*([0-7]+)$/m)?.[1] ?? '', 8);
      // The runtime did set the flag while serving: the restore below is what clears it.
      expect(during & O_NONBLOCK).toBe(O_NONBLOCK);
      process.kill(pidText, 'SIGTERM');
      let rest = 0;
      for (;;) {
        const chunk = await stdout.read();
        if (chunk.done) break;
        rest += chunk.value.length;
      }
      child.stdin.end();
      const stderr = await stderrText;
      expect(await child.exited).toBe(0);
      expect(stderr).toContain('status=143');
      for (const [, value] of parseFlags(stderr)) expect(value & O_NONBLOCK).toBe(0);
      expect(rest).toBeGreaterThanOrEqual(HEAD_BYTES);
    },
    LIVENESS_MS,
  );
});

/** The pid of the executable bash started in the background (its only child). */
async function waitForPid(bashPid: number): Promise<number> {
  for (;;) {
    const children = (await Bun.file(`/proc/${bashPid}/task/${bashPid}/children`).text()).trim().split(/\s+/).filter(Boolean);
    if (children.length === 1) return Number(children[0]);
    await Bun.sleep(10);
  }
}
