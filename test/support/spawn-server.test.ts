// spawnServer() connects the SDK client over stdio, captures stderr and reports the exit.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { cleanEnv } from './env.ts';
import { REPO_ROOT } from './paths.ts';
import { spawnServer } from './spawn-server.ts';

const FIXTURE = join(REPO_ROOT, 'test', 'support', 'fixtures', 'echo-mcp-server.ts');

describe('spawnServer()', () => {
  test('lists and calls tools, captures stderr, and sees exit 0 after stdin EOF', async () => {
    const server = await spawnServer(process.execPath, [FIXTURE], cleanEnv({ ECHO_SUFFIX: '!' }));
    try {
      const tools = await server.client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toEqual(['echo']);
      const result = await server.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(result.content).toEqual([{ type: 'text', text: 'hi!' }]);
      expect(server.client.getServerVersion()).toEqual({ name: 'echo-fixture', version: '1.0.0' });
      expect(server.pid).toBeNumber();
    } finally {
      expect(await server.close()).toEqual({ code: 0, signal: null });
    }
    expect(server.stderr()).toContain('echo-fixture: started');
  });

  test('throws with the captured stderr when the handshake fails', async () => {
    const failing = spawnServer(process.execPath, ['-e', 'process.stderr.write("boom-startup\\n");process.exit(1)'], cleanEnv());
    await expect(failing).rejects.toThrow('boom-startup');
  });
});
