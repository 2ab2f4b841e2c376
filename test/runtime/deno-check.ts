// Run by test/runtime/deno.test.ts under `deno run`: exercises the Deno branches of
// src/runtime/ (Deno.serve, node:sqlite, Deno.permissions) and prints one JSON line.
import { listen } from '../../src/runtime/listen.ts';
import { missingPermission } from '../../src/runtime/permissions.ts';
import { RUNTIME } from '../../src/runtime/runtime.ts';
import { openSqlite } from '../../src/runtime/sqlite.ts';

const result: Record<string, unknown> = { runtime: RUNTIME };

const db = await openSqlite(':memory:', { readonly: false });
db.exec('CREATE VIRTUAL TABLE t USING fts5(a)');
db.prepare('INSERT INTO t VALUES (?)').run('deno sqlite');
result['sqlite'] = db
  .prepare('SELECT a FROM t WHERE t MATCH ?')
  .all('"sqlite"')
  .map((row) => row['a']);
db.close();

let release: () => void = () => {};
let arrived: () => void = () => {};
const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
const server = await listen(
  async (request) => {
    // Reading the signal makes Deno 2.9 warn on stderr once; listen-deno.ts drops that warning.
    void request.signal;
    if (new URL(request.url).pathname === '/slow') {
      const held = new Promise<void>((resolve) => (release = resolve));
      arrived();
      await held;
    }
    return new Response(`${request.method} ${new URL(request.url).pathname} ${await request.text()}`);
  },
  { hostname: '[::1]', port: 0 },
);
result['url'] = server.url.replace(String(server.port), 'PORT');
result['echo'] = await (await fetch(`${server.url}/x`, { method: 'POST', body: 'hi' })).text();
const slow = fetch(`${server.url}/slow`).then((response) => response.text());
await slowArrived; // the request is in flight when close() starts
const closing = server.close();
release();
result['inFlight'] = await slow;
await closing;
result['afterClose'] = await fetch(`${server.url}/`).then(
  () => 'answered',
  () => 'refused',
);

result['missingWrite'] = (await missingPermission([{ name: 'read' }, { name: 'write', target: '/tmp' }])) ?? null;
result['missingNet'] = (await missingPermission([{ name: 'net', target: '::1' }])) ?? null;
console.log(JSON.stringify(result));
