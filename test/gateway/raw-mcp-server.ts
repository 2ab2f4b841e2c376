// Test helper: a bare Streamable HTTP MCP server on loopback port 0 that answers `tools/call`
// with JSON text written by the test, for results the SDK's own server cannot serialize (for
// example nesting deeper than JSON.stringify can walk). JSON responses only, no sessions.

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

/**
 * Starts the server.
 *
 * @param toolName The one tool it lists.
 * @param callResultJson The JSON text of every `tools/call` result (the `result` member).
 * @returns The running server; close() it after the test.
 */
export function startRawMcpServer(toolName: string, callResultJson: string): RawMcpServer {
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
          return reply(message.id, JSON.stringify({ protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1.0.0' } }));
        case 'tools/list':
          return reply(message.id, JSON.stringify({ tools: [{ name: toolName, inputSchema: { type: 'object' } }] }));
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
