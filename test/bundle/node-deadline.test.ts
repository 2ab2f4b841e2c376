// The provider timeout under real Node.js while garbage collection runs (nodejs/node#57736: a
// signal built with AbortSignal.any + AbortSignal.timeout can be collected so the timeout never
// fires). A stalled provider must still yield the stable failure text. Liveness bound: the call
// must settle at all (the test timeout), not within any measured time.
import { afterAll, expect, test } from 'bun:test';
import { startGenericHttpFake } from '../fakes/generic-http.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { nodeLauncher } from './bundle-runtimes.ts';

const TOKEN_ENV = 'EC_DEADLINE_TOKEN';
const TOKEN = 'ec-deadline-token-7Hq2Lm';
/** Collects garbage every 20 ms inside the server process. */
const GC_PRELOAD = 'data:text/javascript,setInterval(()=>globalThis.gc(),20).unref()';

afterAll(async () => {
  await removeTempDirs();
});

test('serve under node with constant GC: a stalled provider fails the call after its timeout (liveness)', async () => {
  const fake = await startGenericHttpFake({ token: TOKEN });
  try {
    fake.override({ kind: 'stall-before-headers' });
    const config = await writeConfigFile({
      version: 1,
      timeoutMs: 300,
      provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: TOKEN_ENV },
    });
    const { command, args } = nodeLauncher();
    const server = await spawnServer(command, ['--expose-gc', `--import=${GC_PRELOAD}`, ...args, 'serve', '--config', config], cleanEnv({ [TOKEN_ENV]: TOKEN }));
    try {
      // A second call while the first is pending keeps other work running during the stall.
      const [first, second] = await Promise.all([
        server.client.callTool({ name: 'context_search', arguments: { query: 'stalled one' } }),
        server.client.callTool({ name: 'context_search', arguments: { query: 'stalled two' } }),
      ]);
      for (const result of [first, second]) {
        expect(result.isError).toBe(true);
        expect(result.content).toEqual([{ type: 'text', text: 'External context search failed.' }]);
      }
    } finally {
      expect(await server.close()).toEqual({ code: 0, signal: null });
    }
  } finally {
    await fake.close();
  }
}, 20_000);

/**
 * Makes Node's first `fetch` call block for 400 ms before it sends anything, as undici's lazy
 * start-up does on a loaded machine (200–900 ms measured, issue 18), so the outcome below
 * does not depend on the machine's speed.
 */
const SLOW_FIRST_FETCH = `data:text/javascript,${encodeURIComponent(
  'const f=globalThis.fetch;let first=true;globalThis.fetch=function(...a){if(first){first=false;const end=Date.now()+400;while(Date.now()<end);}return f.apply(this,a)}',
)}`;

test('serve under node: with 400 ms of fetch start-up, the first call with timeoutMs 300 succeeds: the timeout starts when the request is sent (providers.md §1.4)', async () => {
  const fake = await startGenericHttpFake({ token: TOKEN, items: [{ id: 'doc-1', content: 'Deploys need two approvals.' }] });
  try {
    const config = await writeConfigFile({
      version: 1,
      timeoutMs: 300,
      provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: TOKEN_ENV },
    });
    const { command, args } = nodeLauncher();
    const server = await spawnServer(command, [`--import=${SLOW_FIRST_FETCH}`, ...args, 'serve', '--config', config], cleanEnv({ [TOKEN_ENV]: TOKEN }));
    try {
      const first = await server.client.callTool({ name: 'context_search', arguments: { query: 'approvals' } });
      expect(first.isError).toBeFalsy();
      expect(JSON.stringify(first.content)).toContain('Deploys need two approvals.');
    } finally {
      expect(await server.close()).toEqual({ code: 0, signal: null });
    }
  } finally {
    await fake.close();
  }
}, 20_000);
