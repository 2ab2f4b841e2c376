// Peak memory of `gateway call` against hostile remote servers, on the executable, the Node.js
// bundle and the Deno bundle (frontend-mcp.md §3.1): whatever a server sends, peak RSS stays
// within 64 MiB of the same command against a well-behaved server, and the call fails with the
// stable message long before its timeout.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { denoLauncher, nodeLauncher, type BundleLauncher } from '../bundle/bundle-runtimes.ts';
import { type HostileServer, startHostileServer } from '../gateway/hostile-mcp-server.ts';
import { createTempFiles } from '../gateway/temp-files.ts';
import { exePath, requireBuilt } from '../support/paths.ts';
import { hostToolTier } from '../support/ci-tools.ts';
import { registerToolGate, type ToolTier } from '../support/tool-tier.ts';
import { runProcess } from '../support/run-process.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

const MIB = 1024 * 1024;
const HEADROOM_KIB = 64 * 1024;
const TIME = '/usr/bin/time';
const files = createTempFiles('ec-gateway-memory-');
let tame: HostileServer;
let growing: HostileServer;
let huge: HostileServer;

beforeAll(async () => {
  tame = await startHostileServer('huge-json', 16);
  growing = await startHostileServer('growing-event');
  huge = await startHostileServer('huge-json', 100 * MIB);
});
afterAll(async () => {
  await tame.close();
  await growing.close();
  await huge.close();
  files.remove();
});

function configFor(remote: HostileServer): string {
  return files.write({ version: 1, servers: { h: { enabled: true, url: remote.url, tools: { search: { enabled: true, readOnly: true, timeoutMs: 30000 } } } } });
}

const launchers: BundleLauncher[] = [{ label: 'executable', command: requireBuilt(exePath()), args: [] }, nodeLauncher(), denoLauncher()];

/** GNU time reports the peak RSS; without it the tier is skipped with its reason (fails under CI=true). */
const gnuTime: ToolTier = hostToolTier('gateway-memory', 'gateway call peak RSS');
registerToolGate(gnuTime);

/** Runs `gateway call` under GNU time; returns exit code, stderr without the time line, and peak RSS in KiB. */
async function peak(launcher: BundleLauncher, remote: HostileServer): Promise<{ code: number | null; stderr: string; kib: number }> {
  const result = await runProcess(TIME, ['-f', 'peak-rss-kib %M', launcher.command, ...launcher.args, 'gateway', 'call', 'mcp__h__search', '--config', configFor(remote)], {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp' },
    timeoutMs: LIVENESS_MS,
  });
  const match = /peak-rss-kib (\d+)\n?$/.exec(result.stderr);
  if (match === null) throw new Error(`no RSS figure: ${result.stderr}`);
  const stderr = result.stderr.slice(0, match.index).replace(/Command exited with non-zero status \d+\n/, '');
  return { code: result.code, stderr, kib: Number(match[1]) };
}

describe.skipIf(gnuTime.missing !== undefined)('gateway call peak RSS against hostile servers', () => {
  for (const launcher of launchers) {
    test(`${launcher.label}: a growing SSE event and a 100 MB JSON result stay within 64 MiB of idle`, async () => {
      const idle = await peak(launcher, tame);
      expect(idle.code).toBe(0);
      for (const remote of [growing, huge]) {
        const run = await peak(launcher, remote);
        console.log(`[gateway-memory] ${launcher.label} ${remote === growing ? 'growing-event' : 'huge-json'}: idle ${idle.kib} KiB, peak ${run.kib} KiB`);
        expect(run.code).toBe(1);
        expect(run.stderr).toContain('[external-context] Frontend MCP tool call failed.\n');
        expect(run.kib - idle.kib).toBeLessThanOrEqual(HEADROOM_KIB);
      }
    });
  }
});
