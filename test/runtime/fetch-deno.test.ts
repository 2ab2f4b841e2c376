// runtimeFetch() under Deno (fetch-deno.ts), run in a real Deno process with the base
// permissions: direct clients ignore the proxy variables Deno reads itself, proxied clients
// reach the forward proxy whatever NO_PROXY says (config.md §12, §14).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import { startForwardProxy, type ForwardProxy } from '../services/forward-proxy.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

const ROOT = path.resolve(import.meta.dir, '../..');
const DENO = path.join(ROOT, 'node_modules/.bin/deno');
const RUNTIME_FETCH = pathToFileURL(path.join(ROOT, 'src/runtime/runtime-fetch.ts')).href;

const SCRIPT = `
import { runtimeFetch } from ${JSON.stringify(RUNTIME_FETCH)};
const [fakeOrigin, proxyUrl] = Deno.args;
const init = () => ({ method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
const out = {};
out.direct = await (await runtimeFetch(fakeOrigin + '/direct', init(), { mode: 'direct' })).json();
out.proxied = await (await runtimeFetch('http://context.test:8080/proxied', init(), { mode: 'proxy', proxyUrl })).json();
try {
  await runtimeFetch('https://context.test/tls', init(), { mode: 'proxy', proxyUrl });
  out.connect = 'answered';
} catch {
  out.connect = 'failed';
}
const withCredentials = proxyUrl.replace('http://', 'http://user:canary-pass@');
out.credentialed = await (await runtimeFetch('http://context.test:8080/auth', init(), { mode: 'proxy', proxyUrl: withCredentials })).json();
out.envAfter = Deno.env.get('HTTP_PROXY') === Deno.args[2] && Deno.env.get('NO_PROXY') === 'context.test';
console.log(JSON.stringify(out));
`;

/** Runs Deno without blocking this process, whose loopback servers must keep answering. */
function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(DENO, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', () => resolve({ stdout, stderr }));
  });
}

let fake: FakeServer;
let proxy: ForwardProxy;
let dir: string;

beforeAll(async () => {
  fake = await startFakeServer({ handler: (request) => ({ status: 200, json: { path: request.path } }) });
  proxy = await startForwardProxy({ upstreams: { 'context.test:8080': fake.origin } });
  dir = mkdtempSync(path.join(tmpdir(), 'ec-deno-fetch-'));
  writeFileSync(path.join(dir, 'route.ts'), SCRIPT);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await proxy.close();
  await fake.close();
});

describe('runtimeFetch() under Deno', () => {
  test(
    'direct ignores HTTP(S)_PROXY and ALL_PROXY; proxied reaches the proxy despite NO_PROXY',
    async () => {
      const dead = 'http://127.0.0.1:9';
      const result = await run(['run', '--no-prompt', '--allow-read', '--allow-env', '--allow-net', path.join(dir, 'route.ts'), fake.origin, proxy.url, dead], {
        ...process.env,
        HTTP_PROXY: dead,
        http_proxy: dead,
        HTTPS_PROXY: dead,
        ALL_PROXY: dead,
        NO_PROXY: 'context.test',
        no_proxy: 'context.test',
      });
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({
        direct: { path: '/direct' },
        proxied: { path: '/proxied' },
        connect: 'failed',
        credentialed: { path: '/auth' },
        envAfter: true,
      });
      expect(proxy.requests.map((r) => `${r.method} ${r.target}`)).toEqual(['POST http://context.test:8080/proxied', 'CONNECT context.test:443', 'POST http://context.test:8080/auth']);
      expect(proxy.requests[2]?.headers['proxy-authorization']).toBe(`Basic ${btoa('user:canary-pass')}`);
      expect(fake.requests.map((r) => r.path)).toEqual(['/direct', '/proxied', '/auth']);
    },
    LIVENESS_MS,
  );
});
