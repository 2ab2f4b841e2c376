// The reference servers of the warm-call and `serve --http` benchmarks (issue 18): what a
// server costs per context_search when it does only the part named by its mode, so the
// product's figures can be split into "the MCP SDK kept as it is" and "our own work".
//   stdio-sdk      the SDK's low-level Server on its stdio transport; the tool is one fetch to
//                  the provider whose JSON it returns (no validation, bounding or escaping)
//   http-bare      no SDK: Bun.serve, JSON.parse of the body, that one fetch, JSON answer
//   http-sdk-noop  per request a fresh SDK Server and web-standard transport (stateless, JSON
//                  responses, the parsed body handed over, as serve --http); the tool answers a
//                  fixed text, no fetch
//   http-sdk       the same with the one fetch: the floor of serve --http with the SDK kept
// `npm run bench` compiles it like the product. HTTP modes print their URL on stdout, restore
// the normal JIT policy once listening (as serve --http does) and stop on SIGTERM.
// Usage: sdk-floor <mode> <provider search URL>, with the bearer token in BENCH_TOKEN.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [mode, searchUrl] = process.argv.slice(2);
const token = process.env['BENCH_TOKEN'] ?? '';
const TOOL = { name: 'context_search', description: 'reference', inputSchema: { type: 'object' as const, properties: { query: { type: 'string' } } } };
// As src/mcp/server.ts: no Ajv built per Server (it only checks elicitation answers).
const NO_VALIDATOR = { getValidator: () => () => ({ valid: false as const, data: undefined, errorMessage: 'unused' }) };

async function relay(query: unknown): Promise<{ content: { type: 'text'; text: string }[]; structuredContent: Record<string, unknown> }> {
  const response = await fetch(searchUrl as string, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, limit: 5 }),
  });
  // The provider's answer under the envelope's key, unbounded and unescaped.
  const value = { untrusted_external_context: (await response.json()) as unknown };
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

function sdkServer(noop: boolean): Server {
  const server = new Server({ name: 'sdk-floor', version: '0.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: NO_VALIDATOR });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [TOOL] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (noop) return { content: [{ type: 'text', text: '{"untrusted_external_context":{"items":[]}}' }], structuredContent: { untrusted_external_context: { items: [] } } };
    return relay(request.params.arguments?.['query']);
  });
  return server;
}

async function answerSdk(request: Request, noop: boolean): Promise<Response> {
  const server = sdkServer(noop);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  try {
    await server.connect(transport);
    // As serve --http: the body parsed once and handed over, so the SDK does not read it again.
    const parsedBody = (await request.json()) as unknown;
    return await transport.handleRequest(new Request(request.url, { method: 'POST', headers: request.headers }), { parsedBody });
  } finally {
    void server.close().catch(() => undefined);
  }
}

async function answerBare(request: Request): Promise<Response> {
  const message = (await request.json()) as { id: unknown; params: { arguments: { query: unknown } } };
  const result = await relay(message.params.arguments.query);
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }), { headers: { 'content-type': 'application/json' } });
}

if (mode === 'stdio-sdk') {
  const server = sdkServer(false);
  process.stdin.once('end', () => process.exit(0));
  await server.connect(new StdioServerTransport());
} else if (mode === 'http-bare' || mode === 'http-sdk-noop' || mode === 'http-sdk') {
  const listening = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request) => (mode === 'http-bare' ? answerBare(request) : answerSdk(request, mode === 'http-sdk-noop')),
  });
  (Bun as unknown as { unsafe: { setJITPolicy?: (scale: number) => void } }).unsafe.setJITPolicy?.(1);
  process.on('SIGTERM', () => {
    void listening.stop(true);
    process.exit(0);
  });
  console.log(`http://127.0.0.1:${listening.port}/mcp`);
} else {
  console.error('usage: sdk-floor stdio-sdk|http-bare|http-sdk-noop|http-sdk <provider search URL>');
  process.exit(2);
}
