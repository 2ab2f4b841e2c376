// Peak memory of `gateway call` against hostile remote servers, on the executable, the Node.js
// bundle and the Deno bundle (frontend-mcp.md §3.1): whatever a server sends (one endless event,
// a 100 MB result, 47,000 tiny events), peak RSS stays within 64 MiB of the same command against
// a well-behaved server, and the call fails with the stable message long before its timeout. A
// server that floods requests on its GET stream leaves another server's call unaffected (§3).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type BundleLauncher, type Launcher, launchers as runtimeRows } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { type FloodServer, startFloodServer } from '../gateway/flooding-mcp-server.ts';
import { type HostileServer, startHostileServer } from '../gateway/hostile-mcp-server.ts';
import { MAX_REPLIES_IN_FLIGHT } from '../../src/gateway/discovery/message-gate.ts';
import { createTempFiles } from '../gateway/temp-files.ts';
import { hostToolTier } from '../support/ci-tools.ts';
import { registerToolGate, type ToolTier } from '../support/tool-tier.ts';
import { runProcess } from '../support/run-process.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

const MIB = 1024 * 1024;
const HEADROOM_KIB = 64 * 1024;
const TIME = '/usr/bin/time';
const TIMEOUT = '/usr/bin/timeout';
const files = createTempFiles('ec-gateway-memory-');
let tame: HostileServer;
let growing: HostileServer;
let huge: HostileServer;
let tiny: FloodServer;

beforeAll(async () => {
  tame = await startHostileServer('huge-json', 16);
  growing = await startHostileServer('growing-event');
  huge = await startHostileServer('huge-json', 100 * MIB);
  tiny = await startFloodServer({ call: { flood: 'notifications', events: 47_000, thenResult: true } });
});
afterAll(async () => {
  await tame.close();
  await growing.close();
  await huge.close();
  await tiny.close();
  files.remove();
});

const SEARCH = { search: { enabled: true, readOnly: true, timeoutMs: 30000 } };

/** A configuration of a server `flood` and a server `good`, each with the tool `search`. */
function twoServers(flood: { readonly url: string }, good: { readonly url: string }): string {
  return files.write({ version: 1, servers: { flood: { enabled: true, url: flood.url, tools: SEARCH }, good: { enabled: true, url: good.url, tools: SEARCH } } });
}

function configFor(remote: { readonly url: string }): string {
  return files.write({ version: 1, servers: { h: { enabled: true, url: remote.url, tools: SEARCH } } });
}

const STREAM_MEMORY = proves('gateway-stream-memory', ['executable', 'node-bundle', 'deno-bundle']);
const launchers: Launcher[] = runtimeRows();

/** GNU time reports the peak RSS; without it the tier is skipped with its reason (fails under CI=true). */
const gnuTime: ToolTier = hostToolTier('gateway-memory', 'gateway call peak RSS');
registerToolGate(gnuTime);

/** Runs `gateway call` under GNU time; returns exit code, stderr without the time line, and peak RSS in KiB. */
async function peak(launcher: BundleLauncher, config: string, tool = 'mcp__h__search'): Promise<{ code: number | null; stdout: string; stderr: string; kib: number }> {
  // timeout(1) under GNU time: the hang guard's SIGKILL would reach only GNU time and orphan the
  // command; GNU time's figure includes what timeout(1) waited for.
  const result = await runProcess(TIME, ['-f', 'peak-rss-kib %M', TIMEOUT, '-s', 'KILL', '50', launcher.command, ...launcher.args, 'gateway', 'call', tool, '--config', config], {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp' },
    timeoutMs: LIVENESS_MS,
  });
  const match = /peak-rss-kib (\d+)\n?$/.exec(result.stderr);
  if (match === null) throw new Error(`no RSS figure: ${result.stderr}`);
  const stderr = result.stderr.slice(0, match.index).replace(/Command exited with non-zero status \d+\n/, '');
  return { code: result.code, stdout: result.stdout, stderr, kib: Number(match[1]) };
}

describe.skipIf(gnuTime.missing !== undefined)('gateway call peak RSS against hostile servers', () => {
  for (const launcher of launchers) {
    test(`${launcher.label}: a growing SSE event, a 100 MB JSON result and 47,000 tiny events stay within 64 MiB of idle ${STREAM_MEMORY(launcher.id)}`, async () => {
      const idle = await peak(launcher, configFor(tame));
      expect(idle.code).toBe(0);
      for (const [label, remote] of [
        ['growing-event', growing],
        ['huge-json', huge],
        ['47,000 tiny events', tiny],
      ] as const) {
        const run = await peak(launcher, configFor(remote));
        console.log(`[gateway-memory] ${launcher.label} ${label}: idle ${idle.kib} KiB, peak ${run.kib} KiB`);
        expect(run.kib - idle.kib).toBeLessThanOrEqual(HEADROOM_KIB);
        expect(run.code).toBe(1);
        expect(run.stderr).toContain('[external-context] Frontend MCP tool call failed.\n');
      }
    });
  }
});

describe.skipIf(gnuTime.missing !== undefined)('gateway call to a healthy server next to one that floods its GET stream', () => {
  // 200,000 pings (13 MB) and 2,000,000 notifications (168 MB, "never-ending"): far more than
  // the socket buffers hold, so a stream the client cuts is seen cut before it is written out.
  const floods = [
    { flood: 'pings', events: 200_000 },
    { flood: 'notifications', events: 2_000_000 },
  ] as const;
  for (const launcher of launchers) {
    test(`${launcher.label}: a ping flood and an endless flood of tiny events on another server's GET stream are cut, with at most MAX_REPLIES_IN_FLIGHT replies, within 64 MiB of idle, and the healthy call is unaffected`, async () => {
      const quiet = [await startFloodServer({}), await startFloodServer({})] as const;
      const idle = await peak(launcher, twoServers(quiet[0], quiet[1]), 'mcp__good__search').finally(async () => {
        for (const server of quiet) await server.close();
      });
      expect(idle.code).toBe(0);
      for (const get of floods) {
        const flood = await startFloodServer({ get });
        // The healthy server lists its tools only once the flood has ended, so its call is sent
        // after the flood did whatever it could (by the event, not by a delay).
        const good = await startFloodServer({ holdList: flood.floodEnded('get').then(() => undefined) });
        try {
          const run = await peak(launcher, twoServers(flood, good), 'mcp__good__search');
          const stream = await flood.floodEnded('get');
          console.log(
            `[gateway-memory] ${launcher.label} ${get.flood} flood: ${stream.written} events written, ${flood.replies()} replies received, at most ${flood.peakOpenReplies()} open, idle ${idle.kib} KiB, peak ${run.kib} KiB`,
          );
          expect(run.kib - idle.kib).toBeLessThanOrEqual(HEADROOM_KIB);
          expect(run.stderr).not.toContain('[external-context]');
          expect(run.code).toBe(0);
          expect(JSON.parse(run.stdout)).toMatchObject({ status: 'ok' });
          expect(stream.cutByClient).toBe(true);
          expect(flood.peakOpenReplies()).toBeLessThanOrEqual(MAX_REPLIES_IN_FLIGHT);
        } finally {
          await flood.close();
          await good.close();
        }
      }
    });
  }
});
