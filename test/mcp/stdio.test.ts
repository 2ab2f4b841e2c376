// The stdio MCP server as a real process (`serve --config <file>`), run from source with Bun
// and, when `npm run build` has produced it, as the compiled executable: the whole contract
// suite over the SDK's StdioClientTransport, exit 0 on stdin EOF (profile-v1.md §7), and the
// one-line startup failures with exit 1 (config.md §10, §11).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { CANARY_CREDENTIAL, CANARY_QUERY, childEnv, genericConfig, HANDSHAKE, launchers, spawnRaw, stdioTarget, tempDir, TOKEN_ENV, writeConfig } from './harness.ts';
import { describeContextSearchServer } from './server-contract.ts';

for (const launcher of launchers()) {
  describeContextSearchServer(stdioTarget(launcher));

  describe(`serve over stdio (${launcher.label}): process lifetime`, () => {
    let fake: GenericHttpFake;
    let temp: ReturnType<typeof tempDir>;
    let config: string;

    beforeAll(async () => {
      fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL, items: [{ id: 'a', content: 'alpha' }] });
      temp = tempDir();
      config = writeConfig(temp.dir, genericConfig(fake));
    });
    afterAll(async () => {
      await fake.close();
      temp.cleanup();
    });

    test('closing stdin after a search makes the process exit 0 with nothing on stderr', async () => {
      fake.reset();
      const server = await spawnServer(launcher.command, [...launcher.args, 'serve', '--config', config], childEnv(), { cwd: temp.dir });
      const result = await server.client.callTool({ name: 'context_search', arguments: { query: CANARY_QUERY } });
      expect(result.isError).toBeUndefined();
      // SDK close() ends stdin and only signals the process if it is still alive after 2 s.
      expect(await server.close()).toEqual({ code: 0, signal: null });
      expect(server.stderr()).toBe('');
      expect(fake.requests.length).toBe(1);
    });

    test('closing stdin aborts an in-flight provider request and the process exits 0', async () => {
      fake.reset();
      fake.override({ kind: 'stall-before-headers' });
      const child = spawnRaw(launcher, ['serve', '--config', config], childEnv(), temp.dir);
      for (const message of HANDSHAKE) child.send(message);
      expect((await child.response(1)).result).toBeDefined();
      child.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'context_search', arguments: { query: CANARY_QUERY } } });
      await fake.waitForRequests(1);
      child.endStdin();
      const exit = await child.exited;
      expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
      await fake.requests[0]?.response.settled;
      expect(fake.requests[0]?.response.clientClosed).toBe(true);
      expect(fake.requests.length).toBe(1);
      // stdout carries only MCP frames; stderr at most the operator line of the aborted call.
      for (const line of exit.stdout.split('\n').filter((l) => l !== '')) expect((JSON.parse(line) as { jsonrpc: string }).jsonrpc).toBe('2.0');
      for (const line of exit.stderr.split('\n').filter((l) => l !== '')) {
        expect(line).toBe('external-context: context_search failed: cancelled');
      }
      expect(`${exit.stdout}${exit.stderr}`).not.toContain(CANARY_QUERY);
      expect(`${exit.stdout}${exit.stderr}`).not.toContain(CANARY_CREDENTIAL);
    });
  });

  describe(`serve over stdio (${launcher.label}): startup failures`, () => {
    let temp: ReturnType<typeof tempDir>;
    const origin = 'http://127.0.0.1:9';

    beforeAll(() => {
      temp = tempDir();
    });
    afterAll(() => temp.cleanup());

    async function startup(args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
      const child = spawnRaw(launcher, args, env, temp.dir);
      const exit = await child.exited;
      return { code: exit.code, stdout: exit.stdout, stderr: exit.stderr };
    }

    test('a version 2 configuration exits 1 with the version 1 message', async () => {
      const root = path.join(temp.dir, 'repo');
      mkdirSync(root, { recursive: true });
      const file = writeConfig(temp.dir, { ...genericConfig({ origin }), version: 2, autoRecall: { repositoryRoot: root } }, 'v2.json');
      expect(await startup(['serve', '--config', file], childEnv())).toEqual({
        code: 1,
        stdout: '',
        stderr: '[external-context] External context MCP server requires a version 1 configuration.\n',
      });
    });

    const CASES: readonly (readonly [string, (dir: string) => string[], Record<string, string | undefined>, string | ((dir: string) => string)])[] = [
      ['--config without a value', () => ['serve', '--config'], {}, '--config must name an absolute file path.'],
      ['an empty --config', () => ['serve', '--config='], {}, '--config must name an absolute file path.'],
      ['a relative --config', () => ['serve', '--config', 'config.json'], {}, '--config must name an absolute file path.'],
      ['no --config and no variable', () => ['serve'], {}, 'No configuration: pass --config <absolute path> or set QWEN_EXTERNAL_CONTEXT_CONFIG.'],
      ['no arguments at all (serve is the default)', () => [], {}, 'No configuration: pass --config <absolute path> or set QWEN_EXTERNAL_CONTEXT_CONFIG.'],
      ['a directory as the configuration', (dir) => ['serve', '--config', dir], {}, (dir) => `External context config is not a valid file: ${dir}: is a directory.`],
      [
        'a file that is not JSON',
        (dir) => ['serve', '--config', writeConfig(dir, '{"version":1,', 'bad.json')],
        {},
        (dir) => `External context config is not valid JSON: ${path.join(dir, 'bad.json')}: line 1, column 14.`,
      ],
      [
        'an unsupported version',
        (dir) => ['serve', '--config', writeConfig(dir, { ...genericConfig({ origin }), version: 3 }, 'v3.json')],
        {},
        'External context config is invalid: version must be 1 or 2.',
      ],
      [
        'a missing credential',
        (dir) => ['serve', '--config', writeConfig(dir, genericConfig({ origin }), 'nocred.json')],
        { [TOKEN_ENV]: undefined },
        'Configured external context credential is unavailable. Field: provider.tokenEnv.',
      ],
      [
        'writes with a Generic HTTP provider',
        (dir) => ['serve', '--config', writeConfig(dir, genericConfig({ origin }, { write: { enabled: true } }), 'write.json')],
        {},
        'External context memory writes require a Mem0 provider. Field: write.',
      ],
      [
        'plain HTTP to a non-loopback host',
        (dir) => ['serve', '--config', writeConfig(dir, genericConfig({ origin: 'http://context.example.com' }), 'http.json')],
        {},
        'Provider URL must use HTTPS or loopback HTTP. Field: provider.baseUrl.',
      ],
      [
        'credentials in the provider URL',
        (dir) => ['serve', '--config', writeConfig(dir, genericConfig({ origin: `https://user:${CANARY_CREDENTIAL}@context.example.com` }), 'userinfo.json')],
        {},
        'Provider URL must not contain credentials, path, query, or fragment. Field: provider.baseUrl.',
      ],
    ];

    for (const [label, args, env, message] of CASES) {
      test(`${label}: exactly one stderr line, nothing on stdout, exit 1`, async () => {
        const result = await startup(args(temp.dir), childEnv(env));
        const text = typeof message === 'string' ? message : message(temp.dir);
        expect(result).toEqual({ code: 1, stdout: '', stderr: `[external-context] ${text}\n` });
        expect(result.stderr).not.toContain(CANARY_CREDENTIAL);
      });
    }

    test('the QWEN_EXTERNAL_CONTEXT_CONFIG variable is used when there is no flag', async () => {
      const file = writeConfig(temp.dir, { ...genericConfig({ origin }), version: 2, autoRecall: { repositoryRoot: temp.dir } }, 'env-v2.json');
      const result = await startup(['serve'], childEnv({ QWEN_EXTERNAL_CONTEXT_CONFIG: file }));
      expect(result.stderr).toBe('[external-context] External context MCP server requires a version 1 configuration.\n');
      expect(result.code).toBe(1);
    });
  });
}
