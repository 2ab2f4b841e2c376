// Gateway connections follow the one per-target proxy decision (config.md §12): loopback is
// never proxied, a remote HTTPS server goes through HTTPS_PROXY unless NO_PROXY lists it.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { FrontendMcpGateway } from '../../../src/gateway/frontend-mcp-gateway.ts';
import { loadFrontendMcpConfig } from '../../../src/gateway/config/load-config.ts';
import { startForwardProxy, type ForwardProxy } from '../../services/forward-proxy.ts';
import { config, readOnlyPolicy, server } from '../gateway-fixtures.ts';
import { startMcpServer, type TestServer } from '../mcp-test-server.ts';
import { createTempFiles } from '../temp-files.ts';

let proxy: ForwardProxy;
let mcp: TestServer;
const files = createTempFiles();
beforeAll(async () => {
  proxy = await startForwardProxy();
  mcp = startMcpServer({ tools: [{ name: 'search' }] });
});
afterAll(async () => {
  await proxy.close();
  await mcp.close();
  files.remove();
});

test('a loopback server is reached directly even with HTTP_PROXY and HTTPS_PROXY set', async () => {
  const env = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url };
  const gateway = new FrontendMcpGateway(config(server('local', mcp.url, { search: readOnlyPolicy() })), { env });
  await gateway.discover();
  expect(gateway.health().servers[0]?.status).toBe('ready');
  await gateway.close();
  expect(proxy.requests).toHaveLength(0);
});

test('a remote HTTPS server goes through HTTPS_PROXY (CONNECT), and NO_PROXY bypasses it', async () => {
  const remote = config(server('remote', 'https://mcp.invalid/mcp', { search: readOnlyPolicy() }, { connectTimeoutMs: 3000 }));
  const proxied = new FrontendMcpGateway(remote, { env: { HTTPS_PROXY: proxy.url } });
  await proxied.discover();
  expect(proxied.health().servers[0]).toMatchObject({ status: 'error', error: 'Frontend MCP connection failed: remote' });
  expect(proxy.requests.map((request) => [request.method, request.target])).toEqual([['CONNECT', 'mcp.invalid:443']]);
  await proxied.close();
  const bypassed = new FrontendMcpGateway(remote, { env: { HTTPS_PROXY: proxy.url, NO_PROXY: '.invalid' } });
  await bypassed.discover();
  expect(bypassed.health().servers[0]?.status).toBe('error');
  expect(proxy.requests).toHaveLength(1);
  await bypassed.close();
});

test('a gateway built from a loaded configuration routes with the environment it was loaded with', async () => {
  const file = files.write({
    version: 1,
    servers: { remote: { enabled: true, url: 'https://mcp2.invalid/mcp', connectTimeoutMs: 3000, tools: { search: { enabled: true, readOnly: true } } } },
  });
  const loaded = await loadFrontendMcpConfig({ path: file, env: { HTTPS_PROXY: proxy.url } });
  const gateway = new FrontendMcpGateway(loaded);
  await gateway.discover();
  expect(proxy.requests.map((request) => request.target)).toContain('mcp2.invalid:443');
  await gateway.close();
});

test('a gateway built from a copy of a loaded configuration still routes with the environment it was loaded with', async () => {
  // Issue 25 §5: the environment was keyed by the configuration object's identity, so a library
  // user who cloned the configuration silently lost the proxy route.
  const file = files.write({
    version: 1,
    servers: { remote: { enabled: true, url: 'https://mcp3.invalid/mcp', connectTimeoutMs: 3000, tools: { search: { enabled: true, readOnly: true } } } },
  });
  const loaded = await loadFrontendMcpConfig({ path: file, env: { HTTPS_PROXY: proxy.url } });
  for (const copy of [structuredClone(loaded), { ...loaded }, JSON.parse(JSON.stringify(loaded)) as typeof loaded]) {
    proxy.requests.length = 0;
    const gateway = new FrontendMcpGateway(copy);
    await gateway.discover();
    expect(proxy.requests.map((request) => request.target)).toContain('mcp3.invalid:443');
    await gateway.close();
  }
});
