// Test helper: normalized configurations for gateway tests, a recording logger and a fake clock.
import type { FrontendMcpConfig, FrontendMcpServerConfig, FrontendMcpToolPolicy } from '../../src/gateway/config/schema.ts';
import type { GatewayLogEvent } from '../../src/gateway/gateway-log.ts';

/** A read-only policy with the spec defaults. */
export function readOnlyPolicy(overrides: Partial<FrontendMcpToolPolicy> = {}): FrontendMcpToolPolicy {
  return { enabled: true, readOnly: true, approval: 'none', timeoutMs: 8000, maxResultBytes: 32768, maxCallsPerTurn: 2, ...overrides };
}

/** A writable policy that requires approval. */
export function writablePolicy(overrides: Partial<FrontendMcpToolPolicy> = {}): FrontendMcpToolPolicy {
  return readOnlyPolicy({ readOnly: false, approval: 'required', ...overrides });
}

/** One enabled server with the given tool policies. */
export function server(key: string, url: string, tools: Record<string, FrontendMcpToolPolicy>, overrides: Partial<FrontendMcpServerConfig> = {}): FrontendMcpServerConfig {
  return {
    key,
    enabled: true,
    connectTimeoutMs: 8000,
    refreshOnListChanged: false,
    transport: { type: 'streamable-http', url, headers: {} },
    tools,
    ...overrides,
  };
}

/** A configuration of the given servers. */
export function config(...servers: FrontendMcpServerConfig[]): FrontendMcpConfig {
  return { version: 1, servers };
}

/** A logger that records every event. */
export function recordingLogger(): { events: GatewayLogEvent[]; logger: (event: GatewayLogEvent) => void } {
  const events: GatewayLogEvent[] = [];
  return { events, logger: (event) => events.push(event) };
}

/** A settable clock in milliseconds. */
export function fakeClock(start = 1_700_000_000_000): { now: () => number; advance: (ms: number) => void } {
  let current = start;
  return { now: () => current, advance: (ms) => (current += ms) };
}

export { eventually } from '../support/eventually.ts';
