// Validation of the flag form before any request (probe.md §1.1): every message, printed
// verbatim on one stderr line with exit 2, nothing on stdout, and no request made.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { KEY, probe } from '../probe/probe-harness.ts';

const POLARDB = 'polardb-mysql-2026-08';
const PRESET_LIST = '--preset must be one of: mem0-platform-v3, mem0-server-rest-2026-08, polardb-mysql-2026-08';
let fake: Mem0ServerFake;

beforeAll(async () => {
  fake = await startMem0ServerFake({ routes: 'polardb', apiKey: KEY, memories: [{ id: 'm1', memory: 'x', user_id: 'u1' }] });
});
beforeEach(() => fake.reset());
afterAll(() => fake.close());

async function rejects(args: string[], message: string, env: Record<string, string | undefined> = { MEM0_API_KEY: KEY }): Promise<void> {
  const result = await probe(args, env);
  expect(result).toEqual({ code: 2, stdout: '', stderr: `[external-context] ${message}\n` });
  expect(fake.requests).toEqual([]);
}

const base = (): string[] => ['--preset', POLARDB, '--origin', fake.origin, '--user-id', 'u1'];

describe('probe flag validation', () => {
  test('--preset missing, unknown, or retired (with the replacement named)', async () => {
    await rejects(['--origin', fake.origin, '--user-id', 'u1'], PRESET_LIST);
    await rejects(['--preset', 'mem0', '--origin', fake.origin], PRESET_LIST);
    await rejects(['--preset', 'toString', '--origin', fake.origin], PRESET_LIST);
    await rejects(['--preset', 'mem0-oss-rest-2026-08', '--origin', fake.origin], `${PRESET_LIST} ("mem0-oss-rest-2026-08" is retired; use "mem0-server-rest-2026-08")`);
    await rejects(['--preset', 'mem0-v2', '--origin', fake.origin], `${PRESET_LIST} ("mem0-v2" is retired; use "polardb-mysql-2026-08")`);
  });

  test('--origin missing', async () => {
    await rejects(['--preset', POLARDB, '--user-id', 'u1'], '--origin is required.');
  });

  test('--preset=<id> and --origin=<url> are read as --name value pairs (the next check, the scope, is what fails)', async () => {
    await rejects([`--preset=${POLARDB}`, '--origin=https://mem0.example.com'], 'External context Mem0 scope is invalid: preset "polardb-mysql-2026-08" requires "userId".');
  });

  test('--credential-env must be a variable name', async () => {
    await rejects([...base(), '--credential-env', '1KEY'], '--credential-env must be an environment variable name.');
    await rejects([...base(), '--credential-env', 'A-B'], '--credential-env must be an environment variable name.');
  });

  test('a missing, blank, placeholder or control-character credential names the variable, never a value', async () => {
    await rejects(base(), 'MEM0_API_KEY must hold the provider credential.', {});
    await rejects(base(), 'MEM0_API_KEY must hold the provider credential.', { MEM0_API_KEY: '' });
    await rejects(base(), 'MEM0_API_KEY must hold the provider credential.', { MEM0_API_KEY: '  \t' });
    await rejects(base(), 'MEM0_API_KEY must hold the provider credential.', { MEM0_API_KEY: '${MEM0_API_KEY}' });
    await rejects(base(), 'MEM0_API_KEY must hold the provider credential.', { MEM0_API_KEY: `${CANARY.credential}\n` });
    const inherited = Object.create({ INHERITED_KEY: KEY }) as Record<string, string>;
    await rejects([...base(), '--credential-env', 'INHERITED_KEY'], 'INHERITED_KEY must hold the provider credential.', inherited);
    await rejects([...base(), '--credential-env', CANARY.envName], `${CANARY.envName} must hold the provider credential.`, {});
  });

  test('scope values are trimmed and must have 1 to 256 code points', async () => {
    await rejects(['--preset', POLARDB, '--origin', fake.origin, '--user-id', '   '], 'External context Mem0 scope is invalid: "--user-id" must contain 1 to 256 characters after trimming.');
    await rejects([...base(), '--agent-id', '😀'.repeat(257)], 'External context Mem0 scope is invalid: "--agent-id" must contain 1 to 256 characters after trimming.');
    const result = await probe(['--preset', POLARDB, '--origin', fake.origin, '--user-id', ` ${'😀'.repeat(256)} `]);
    expect(result.stderr).toBe('');
    expect(fake.requests[1]!.json).toMatchObject({ filters: { user_id: '😀'.repeat(256) } });
  });

  test('scope against the preset: a required key, and an unused key rejected before any request', async () => {
    await rejects(['--preset', POLARDB, '--origin', fake.origin], 'External context Mem0 scope is invalid: preset "polardb-mysql-2026-08" requires "userId".');
    await rejects([...base(), '--app-id', 'repository-memory'], 'External context Mem0 scope is invalid: preset "polardb-mysql-2026-08" does not use "appId", so it must be omitted.');
    await rejects(
      ['--preset', 'mem0-platform-v3', '--origin', fake.origin, '--app-id', 'a', '--user-id', 'u1'],
      'External context Mem0 scope is invalid: preset "mem0-platform-v3" does not use "userId", so it must be omitted.',
    );
  });

  test('origin policy: the probe hint for plain HTTP, and origin-only URLs', async () => {
    const hint = 'Provider URL must use HTTPS or loopback HTTP; pass --allow-insecure-http to permit plain HTTP for this probe.';
    await rejects(['--preset', POLARDB, '--origin', 'http://mem0.example.com', '--user-id', 'u1'], hint);
    await rejects(['--preset', POLARDB, '--origin', 'not a url', '--user-id', 'u1'], 'Provider URL is invalid.');
    await rejects(['--preset', POLARDB, '--origin', `${fake.origin}/v2`, '--user-id', 'u1'], 'Provider URL must not contain credentials, path, query, or fragment.');
    await rejects(['--preset', POLARDB, '--origin', `http://user:${KEY}@127.0.0.1:1`, '--user-id', 'u1'], 'Provider URL must not contain credentials, path, query, or fragment.');
    await rejects(['--preset', POLARDB, '--origin', 'ftp://mem0.example.com', '--user-id', 'u1'], 'Provider URL must use HTTPS or loopback HTTP.');
  });

  test('--allow-insecure-http relaxes only the scheme: a non-loopback http origin is probed', async () => {
    // 127.0.0.2 is not loopback for the policy; nothing listens there, so the requests fail.
    const result = await probe(['--preset', POLARDB, '--origin', 'http://127.0.0.2:9', '--user-id', 'u1', '--allow-insecure-http']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Endpoint: http://127.0.0.2:9/v2/memories/search  (read-only)');
  });

  test('the nine basePath rules', async () => {
    const cases: [string, string][] = [
      ['v1', 'it must start with "/"'],
      ['/a//b', 'it must not contain an empty segment ("//")'],
      ['/a?b', 'it must not contain a query ("?")'],
      ['/a#b', 'it must not contain a fragment ("#")'],
      ['/a\\b', 'it must not contain a backslash'],
      ['/a%20', 'it must not contain percent-encoded material ("%")'],
      ['/a b', 'it must not contain whitespace'],
      ['/a\u0001', 'it must not contain control characters'],
      ['/a/../b', 'it must not contain a "." or ".." segment'],
    ];
    for (const [value, reason] of cases) {
      await rejects([...base(), '--base-path', value], `External context Mem0 endpoint basePath is invalid: ${reason}.`);
    }
  });

  test('an invalid proxy variable is a validation failure (exit 2)', async () => {
    await rejects(
      ['--preset', POLARDB, '--origin', 'https://mem0.example.com', '--user-id', 'u1'],
      'Proxy variable HTTPS_PROXY must use the http: or https: scheme; write it as http://<host>:<port>.',
      {
        MEM0_API_KEY: KEY,
        HTTPS_PROXY: 'socks5://proxy.example.com:1080',
      },
    );
  });

  test('the credential never appears in any validation message', async () => {
    const result = await probe(['--preset', POLARDB, '--origin', 'http://mem0.example.com', '--user-id', 'u1']);
    expectNoCanary(result.stdout + result.stderr);
  });
});

// Under Node.js a loopback origin with proxy variables set runs directly: the one Node.js bundle
// row of that is test/e2e/proxy-matrix.test.ts's (check --search, outbound-end-to-end), and probe
// with a loopback origin and dead proxy variables runs there on the executable. A proxy that
// applies to the origin under Node.js (exit 2) runs there with the other Node.js refusals.
