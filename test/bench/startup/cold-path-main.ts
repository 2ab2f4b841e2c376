// The cold-start breakdown of `npm run bench` (issue 18, item 3): the stdio server's cold path
// run in-process, step by step, in the order `serve` runs it, compiled like the product. Each
// step is timed with performance.now() (ms since the runtime started) and the program prints
// one JSON object of step → ms on stdout. Argument: the version 1 configuration's absolute path.
import { writeSync } from 'node:fs';
import process from 'node:process';

const marks: [string, number][] = [['runtime start → entry', performance.now()]];
let last = performance.now();
function mark(step: string): void {
  const now = performance.now();
  marks.push([step, now - last]);
  last = now;
}

const configPath = process.argv[2] as string;
await import('../../../src/cli/dispatch.ts');
mark("product's static graph (cli/dispatch.ts)");
await import('../../../src/cli/serve.ts');
mark('serve command module');
const { openBinding } = await import('../../../src/search/open-binding.ts');
mark('configuration modules (valibot schemas)');
const opened = await openBinding(configPath, process.env);
mark('configuration read, validated, provider built');
const { createTools } = await import('../../../src/mcp/tools.ts');
const tools = createTools(opened.binding, opened.provider, process.stderr);
mark('tool modules and tools');
const { createMcpServer } = await import('../../../src/mcp/server.ts');
mark('MCP SDK import (server, stdio, types)');
const server = createMcpServer(tools);
mark('SDK Server construction');

/** An in-memory transport: requests go straight to the Server, answers resolve the waiter. */
let answer: (message: unknown) => void = () => undefined;
const transport = {
  onmessage: undefined as ((message: unknown) => void) | undefined,
  onclose: undefined as (() => void) | undefined,
  onerror: undefined as ((error: Error) => void) | undefined,
  async start() {},
  async close() {},
  async send(message: unknown) {
    answer(message);
  },
};
await server.connect(transport as never);
mark('Server.connect');
function request(id: number, method: string, params: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve) => {
    answer = resolve;
    transport.onmessage?.({ jsonrpc: '2.0', id, method, params });
  });
}
const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } };
await request(1, 'initialize', initialize);
mark('initialize answered');
transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
await request(2, 'tools/list', {});
mark('tools/list answered');
const { prepareRuntimeFetch } = await import('../../../src/runtime/runtime-fetch.ts');
await prepareRuntimeFetch();
mark('first call: fetch preparation (runtime fetch module)');
const call = { name: 'context_search', arguments: { query: 'deployment approval policy' } };
const { runSearch } = await import('../../../src/search/run-search.ts');
mark('first call: search modules');
const direct = await runSearch(opened.provider, call.arguments, { signal: AbortSignal.timeout(5000) });
mark('first call: our search (validate, request, bound, render), cold');
const again = await runSearch(opened.provider, call.arguments, { signal: AbortSignal.timeout(5000) });
mark('the same search again (warm)');
const first = JSON.stringify(await request(3, 'tools/call', call));
mark('first tools/call through the SDK (our search warm)');
const second = JSON.stringify(await request(4, 'tools/call', call));
mark('second tools/call (warm)');
if (direct.status !== 'ok' || again.status !== 'ok') throw new Error('the search failed');
if (!first.includes('structuredContent') || !second.includes('structuredContent')) throw new Error('context_search failed');
writeSync(1, `${JSON.stringify(Object.fromEntries(marks))}\n`);
process.exit(0);
