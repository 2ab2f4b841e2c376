// The warm-call reference program: the least a stdio server can do per context_search call.
// It reads newline-delimited JSON-RPC, answers `initialize`, and relays each other request as
// one fetch to the provider whose answer it returns as the result; no SDK, no validation, no
// bounding. `npm run bench` compiles it like the product, so its per-call cost over direct
// fetch is the part of the overhead that the extra process and pipe alone account for.
// Usage: stdio-relay <provider search URL>, with the bearer token in BENCH_TOKEN.
const [searchUrl] = process.argv.slice(2);
const token = process.env['BENCH_TOKEN'] ?? '';

async function answer(message: { id?: unknown; method?: unknown; params?: { arguments?: { query?: unknown } } }): Promise<unknown> {
  if (message.method === 'initialize') {
    return { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'stdio-relay', version: '0.0.0' } };
  }
  const response = await fetch(searchUrl as string, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: message.params?.arguments?.query, limit: 5 }),
  });
  const value = (await response.json()) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

let buffered = '';
let queue: Promise<void> = Promise.resolve();
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffered += chunk;
  let newline = buffered.indexOf('\n');
  while (newline !== -1) {
    const message = JSON.parse(buffered.slice(0, newline)) as { id?: unknown };
    buffered = buffered.slice(newline + 1);
    newline = buffered.indexOf('\n');
    if (message.id === undefined) continue;
    queue = queue.then(async () => {
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: await answer(message) })}\n`);
    });
  }
});
process.stdin.on('end', () => process.exit(0));
