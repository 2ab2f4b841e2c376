import { afterAll, expect, test } from 'bun:test';
import { FrontendMcpError } from '../../../src/gateway/frontend-mcp-error.ts';
import { loadFrontendMcpConfig } from '../../../src/gateway/config/load-config.ts';
import { rejectionOf } from '../../support/thrown-error.ts';
import { createTempFiles } from '../temp-files.ts';

const files = createTempFiles();
afterAll(() => files.remove());

const FILE = {
  version: 1,
  servers: {
    documents: {
      enabled: true,
      url: 'https://mcp.example.com/mcp',
      headers: { authorization: '${DOCUMENT_MCP_AUTHORIZATION}' },
      tools: { search: { enabled: true, readOnly: true } },
    },
  },
};

function failure(promise: Promise<unknown>): Promise<FrontendMcpError> {
  return rejectionOf(FrontendMcpError, promise);
}

test('loadFrontendMcpConfig() with neither a path nor the variable, or an empty one, has no servers', async () => {
  expect(await loadFrontendMcpConfig({ env: {} })).toEqual({ version: 1, servers: [] });
  expect(await loadFrontendMcpConfig({ env: { QWEN_AUDIO_FRONTEND_MCP_CONFIG: '' } })).toEqual({ version: 1, servers: [] });
  expect(await loadFrontendMcpConfig({ path: '', env: {} })).toEqual({ version: 1, servers: [] });
});

test('loadFrontendMcpConfig() reads the variable, resolving headers from the same environment', async () => {
  const env = { QWEN_AUDIO_FRONTEND_MCP_CONFIG: files.write(FILE), DOCUMENT_MCP_AUTHORIZATION: 'Bearer canary' };
  const config = await loadFrontendMcpConfig({ env });
  expect(config.servers[0]?.transport.headers).toEqual({ authorization: 'Bearer canary' });
});

test('loadFrontendMcpConfig() prefers the explicit path and ignores an inherited variable', async () => {
  const path = files.write({ version: 1 });
  const inherited = Object.create({ QWEN_AUDIO_FRONTEND_MCP_CONFIG: files.write(FILE) }) as Record<string, string>;
  expect(await loadFrontendMcpConfig({ env: inherited })).toEqual({ version: 1, servers: [] });
  expect(await loadFrontendMcpConfig({ path, env: { QWEN_AUDIO_FRONTEND_MCP_CONFIG: '/nope.json' } })).toEqual({ version: 1, servers: [] });
});

test('loadFrontendMcpConfig() rejects a relative path (Decision: no working-directory resolution)', async () => {
  const error = await failure(loadFrontendMcpConfig({ path: 'frontend-mcp.json', env: {} }));
  expect(error.message).toBe('Frontend MCP configuration path must be absolute.');
  expect(error.code).toBe('frontend_mcp_config_invalid');
  const fromEnv = await failure(loadFrontendMcpConfig({ env: { QWEN_AUDIO_FRONTEND_MCP_CONFIG: './x.json' } }));
  expect(fromEnv.message).toBe('Frontend MCP configuration path must be absolute.');
});

test('loadFrontendMcpConfig() reports a missing variable by name only, never its value', async () => {
  const error = await failure(loadFrontendMcpConfig({ path: files.write(FILE), env: {} }));
  expect(error.message).toBe('Frontend MCP environment variable is missing: DOCUMENT_MCP_AUTHORIZATION');
});

test('loadFrontendMcpConfig() refuses an invalid proxy variable for an enabled server (config.md §12)', async () => {
  const env = { DOCUMENT_MCP_AUTHORIZATION: 'x', HTTPS_PROXY: 'canary-not-a-url' };
  const error = await failure(loadFrontendMcpConfig({ path: files.write(FILE), env }));
  expect(error.code).toBe('frontend_mcp_config_invalid');
  expect(error.message).toBe('Proxy variable HTTPS_PROXY is not an absolute URL; write it as http://<host>:<port> (a bare <host>:<port> is not accepted).');
  const disabled = { ...FILE, servers: { documents: { ...FILE.servers.documents, enabled: false } } };
  expect((await loadFrontendMcpConfig({ path: files.write(disabled), env })).servers).toHaveLength(1);
});

test('loadFrontendMcpConfig() accepts an applicable proxy on Bun, which can route it', async () => {
  const env = { DOCUMENT_MCP_AUTHORIZATION: 'x', HTTPS_PROXY: 'http://127.0.0.1:9' };
  expect((await loadFrontendMcpConfig({ path: files.write(FILE), env })).servers).toHaveLength(1);
});
