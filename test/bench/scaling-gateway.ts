// How gateway discovery grows (issue 18 item 5): `gateway discover --json` (the compiled
// executable, start-up included) against loopback Streamable HTTP MCP servers with many tools.
// One gateway configuration holds at most 8 servers (docs/design/frontend-mcp.md §2.3), so 10
// servers run as two gateways of 5, started together: the only way the specification allows.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMcpServer, type TestServer } from '../gateway/mcp-test-server.ts';
import { type GrowthCheck, printChecks, type ScalingOptions } from './growth-check.ts';
import { percentile } from './stats.ts';
import { exePath } from '../support/paths.ts';

/** Servers one gateway configuration may hold (frontend-mcp.md §2.3). */
const MAX_SERVERS_PER_GATEWAY = 8;
/** Tool policies one server may have (frontend-mcp.md §2.3): only these many are enabled. */
const MAX_POLICIES_PER_SERVER = 32;
/** Measured runs per point (after one warm-up run): discovery is short, and the median of few runs wandered under load. */
const RUNS = 11;

export interface GatewayPoint {
  readonly servers: number;
  readonly toolsPerServer: number;
  /** Gateway processes the servers were split over (1, or 2 past the 8-server limit). */
  readonly gateways: number;
  /** Median wall-clock ms from spawning the gateways to the last one's exit. */
  readonly medianMs: number;
}

export interface GatewayScaling {
  readonly points: readonly GatewayPoint[];
  readonly checks: readonly GrowthCheck[];
}

interface NumberedServer {
  /** Global number: the config key is `s<n>`, its tools are `tool_<n>_<t>`. */
  readonly n: number;
  readonly server: TestServer;
}

function gatewayTools(server: number, count: number): { name: string; description: string; inputSchema: object; annotations: object }[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `tool_${server}_${index}`,
    description: `Looks up record ${index} of server ${server}.`,
    inputSchema: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] },
    annotations: { readOnlyHint: true },
  }));
}

/** Writes one gateway configuration for `servers` (the first 32 tools of each enabled) and returns its path. */
async function writeConfig(dir: string, servers: readonly NumberedServer[], toolsPerServer: number): Promise<string> {
  const enabled = Math.min(MAX_POLICIES_PER_SERVER, toolsPerServer);
  const config = {
    version: 1,
    servers: Object.fromEntries(
      servers.map(({ n, server }) => [
        `s${n}`,
        { enabled: true, url: server.url, tools: Object.fromEntries(Array.from({ length: enabled }, (_, t) => [`tool_${n}_${t}`, { enabled: true, readOnly: true }])) },
      ]),
    ),
  };
  const file = path.join(dir, `gateway-${servers.map(({ n }) => n).join('-')}x${toolsPerServer}.json`);
  await writeFile(file, JSON.stringify(config), { mode: 0o600 });
  return file;
}

async function discover(file: string, enabledTools: number): Promise<void> {
  const child = Bun.spawn([exePath(), 'gateway', 'discover', '--config', file, '--json'], { stdout: 'pipe', stderr: 'ignore', env: { PATH: process.env['PATH'] ?? '' } });
  const out = await new Response(child.stdout).text();
  const code = await child.exited;
  if (code !== 0) throw new Error(`gateway discover exited with ${code}: ${out.slice(0, 200)}`);
  // Every enabled tool must be there: a server that failed closed would make the run look fast.
  const found = (JSON.parse(out) as { tools: unknown[] }).tools.length;
  if (found !== enabledTools) throw new Error(`gateway discover listed ${found} tools, expected ${enabledTools}`);
}

/**
 * Median wall-clock time of `gateway discover --json` over RUNS runs (after one warm-up run),
 * the servers split into `groups`, one gateway process each, all started together.
 */
async function timeDiscover(dir: string, groups: readonly (readonly NumberedServer[])[], toolsPerServer: number): Promise<number> {
  const enabled = Math.min(MAX_POLICIES_PER_SERVER, toolsPerServer);
  const files = await Promise.all(groups.map((group) => writeConfig(dir, group, toolsPerServer)));
  const samples: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const started = performance.now();
    await Promise.all(files.map((file, g) => discover(file, (groups[g] as readonly NumberedServer[]).length * enabled)));
    if (run > 0) samples.push(performance.now() - started); // run 0 warms the page cache
  }
  return percentile(samples, 0.5);
}

/** Splits `servers` into as few gateways as the 8-server limit allows, as evenly as possible. */
function splitIntoGateways<T>(servers: readonly T[]): T[][] {
  const gateways = Math.ceil(servers.length / MAX_SERVERS_PER_GATEWAY);
  const size = Math.ceil(servers.length / gateways);
  return Array.from({ length: gateways }, (_, g) => servers.slice(g * size, (g + 1) * size));
}

/**
 * Discovery time for 1 server × 1 tool, then 1, 2, 4 and 8 servers × `gatewayToolsPerServer`
 * tools in one gateway, and `gatewayServers` servers when that is more than 8 (as two gateways).
 */
export async function scaleGateway(options: ScalingOptions): Promise<GatewayScaling> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ec-bench-scale-gateway-'));
  const tools = options.gatewayToolsPerServer;
  const servers: NumberedServer[] = [];
  try {
    for (let n = 0; n < options.gatewayServers; n++) servers.push({ n, server: startMcpServer({ tools: gatewayTools(n, tools) }) });
    const small: NumberedServer = { n: options.gatewayServers, server: startMcpServer({ tools: gatewayTools(options.gatewayServers, 1) }) };
    servers.push(small); // closed with the others; never part of a many-server point below
    const points: GatewayPoint[] = [];
    const measure = async (group: readonly NumberedServer[], toolsPerServer: number): Promise<GatewayPoint> => {
      const gateways = splitIntoGateways(group);
      options.log(`gateway: ${group.length} server(s) × ${toolsPerServer} tool(s) in ${gateways.length} gateway(s)`);
      const point = { servers: group.length, toolsPerServer, gateways: gateways.length, medianMs: await timeDiscover(dir, gateways, toolsPerServer) };
      points.push(point);
      return point;
    };
    const one = await measure([small], 1);
    const sizes = [1, 2, 4, 8].filter((size) => size < options.gatewayServers);
    const curve: GatewayPoint[] = [];
    for (const size of [...sizes, options.gatewayServers]) curve.push(await measure(servers.slice(0, size), tools));
    const wide = curve[0] as GatewayPoint;
    const inOne = [...curve].reverse().find((point) => point.gateways === 1) as GatewayPoint;
    const all = curve[curve.length - 1] as GatewayPoint;
    const checks: GrowthCheck[] = [
      {
        // Servers are connected and listed concurrently (frontend-mcp.md §3); sequential discovery
        // would take ×servers. On 2 cores that also run the test servers, half of that is the bound.
        expectation: `servers discovered concurrently: ${inOne.servers} servers in one gateway under ${inOne.servers / 2}× one server's time (sequential: ${inOne.servers}×)`,
        measured: `${wide.medianMs.toFixed(0)} → ${inOne.medianMs.toFixed(0)} ms (×${(inOne.medianMs / wide.medianMs).toFixed(2)})`,
        met: inOne.medianMs < (inOne.servers / 2) * wide.medianMs,
      },
      {
        // Listing and naming are linear in the tools with a small constant next to start-up.
        expectation: `tools cost linear and small: ${tools} listed tools add at most 100% to a 1-tool discovery`,
        measured: `${one.medianMs.toFixed(0)} → ${wide.medianMs.toFixed(0)} ms (×${(wide.medianMs / one.medianMs).toFixed(2)})`,
        met: wide.medianMs <= 2 * one.medianMs,
      },
    ];
    if (all.gateways > 1) {
      checks.push({
        expectation: `${all.servers} servers as ${all.gateways} gateways side by side under ${all.servers / 2}× one server's time (sequential: ${all.servers}×)`,
        measured: `${wide.medianMs.toFixed(0)} → ${all.medianMs.toFixed(0)} ms (×${(all.medianMs / wide.medianMs).toFixed(2)})`,
        met: all.medianMs < (all.servers / 2) * wide.medianMs,
      });
    }
    return { points, checks };
  } finally {
    for (const { server } of servers) await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Prints the gateway lines of "How cost grows". */
export function printGatewayScaling(gateway: GatewayScaling): void {
  console.log(
    `  gateway discover --json, start-up included (loopback Streamable HTTP servers; one gateway holds at most ${MAX_SERVERS_PER_GATEWAY} servers and ${MAX_POLICIES_PER_SERVER} enabled tools each, frontend-mcp.md §2.3):`,
  );
  for (const p of gateway.points) {
    const split = p.gateways === 1 ? 'one gateway' : `${p.gateways} gateways side by side`;
    console.log(`    ${String(p.servers).padStart(2)} server(s) × ${p.toolsPerServer} listed tool(s), ${split}: median ${p.medianMs.toFixed(0)} ms`);
  }
  printChecks(gateway.checks);
}
