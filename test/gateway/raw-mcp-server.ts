// Test helper: a bare Streamable HTTP MCP server on loopback port 0 that answers `tools/call`
// (and, when given, `tools/list`) with JSON text written by the test, for results and tool
// definitions the SDK's own server cannot serialize or would refuse (nesting deeper than
// JSON.stringify can walk, hostile code points). JSON responses only, no sessions.

/** A running raw server. */
export interface RawMcpServer {
  readonly url: string;
  close(): Promise<void>;
}

interface BunServe {
  serve(options: { hostname: string; port: number; fetch(request: Request): Promise<Response> | Response }): {
    readonly port: number;
    stop(force?: boolean): Promise<void> | void;
  };
}

/** What {@link startRawMcpServer} answers besides `tools/call`. */
export interface RawMcpServerOptions {
  /** The JSON text of the `tools/list` result (default: the one tool with an empty object schema). */
  readonly listResultJson?: string;
  /** `serverInfo.name` in the initialize result (default `raw`). */
  readonly serverName?: string;
}

/**
 * Starts the server.
 *
 * @param toolName The one tool it lists.
 * @param callResultJson The JSON text of every `tools/call` result (the `result` member).
 * @param options The `tools/list` result and server name, when not the defaults.
 * @returns The running server; close() it after the test.
 */
export function startRawMcpServer(toolName: string, callResultJson: string, options: RawMcpServerOptions = {}): RawMcpServer {
  const bun = (globalThis as unknown as { Bun: BunServe }).Bun;
  const reply = (id: unknown, result: string): Response => new Response(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`, { headers: { 'content-type': 'application/json' } });
  const server = bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
      const message = (await request.json()) as { id?: unknown; method: string; params?: { protocolVersion?: string } };
      if (message.id === undefined) return new Response(null, { status: 202 });
      switch (message.method) {
        case 'initialize':
          return reply(
            message.id,
            JSON.stringify({ protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: options.serverName ?? 'raw', version: '1.0.0' } }),
          );
        case 'tools/list':
          return reply(message.id, options.listResultJson ?? JSON.stringify({ tools: [{ name: toolName, inputSchema: { type: 'object' } }] }));
        case 'tools/call':
          return reply(message.id, callResultJson);
        default:
          return reply(message.id, '{}');
      }
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/mcp`,
    async close() {
      await server.stop(true);
    },
  };
}
