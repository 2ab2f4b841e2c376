// contracts/examples/ (examples.md): exactly the listed files; each JSON example has the spec's
// contents and loads through the product's own loaders after placeholder substitution (the
// configuration loader plus one search against a strict loopback fake, the gateway loader, the
// launch-profile loader); managed MCP, system settings and extension manifests follow their
// rules, and every Hook fragment equals `external-context hook settings` for the same paths.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix, relative, sep, win32 } from 'node:path';
import { run as runCli } from '../../src/cli/dispatch.ts';
import { loadFrontendMcpConfig } from '../../src/gateway/config/load-config.ts';
import { loadLaunchPlan } from '../../src/launch/launch-plan.ts';
import { openBinding } from '../../src/search/open-binding.ts';
import { runSearch } from '../../src/search/run-search.ts';
import { VERSION } from '../../src/version.ts';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { startMem0PlatformFake, type Mem0PlatformFake } from '../fakes/mem0-platform.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { runInMemory } from '../support/memory-io.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import {
  COMMON_SYSTEM_SETTINGS,
  CONFIG_EXAMPLES,
  EXAMPLE_FILES,
  EXAMPLES_DIR,
  LAUNCH_PROFILE_EXAMPLES,
  POSIX_EXECUTABLE,
  readExample,
  STARTER_DIR,
  substitute,
  WINDOWS_EXECUTABLE,
} from './examples-files.ts';

const TOKEN = 'examples-test-credential';
const CREDENTIALS = { CONTEXT_API_TOKEN: TOKEN, MEM0_API_KEY: TOKEN };

let generic: GenericHttpFake;
let platform: Mem0PlatformFake;
let server: Mem0ServerFake;
let polardb: Mem0ServerFake;
let temp: string;

beforeAll(async () => {
  generic = await startGenericHttpFake({ token: TOKEN });
  platform = await startMem0PlatformFake({ apiKey: TOKEN });
  server = await startMem0ServerFake({ apiKey: TOKEN, routes: 'stock' });
  polardb = await startMem0ServerFake({ apiKey: TOKEN, routes: 'polardb' });
  temp = (await makeTempDir('ec-examples-')).path;
});
afterAll(async () => {
  await Promise.all([generic.close(), platform.close(), server.close(), polardb.close()]);
  await removeTempDirs();
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // Build outputs of a local `npm run build` in the starter are ignored by git and not shipped.
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : listFiles(path);
    return [relative(EXAMPLES_DIR, path).split(sep).join('/')];
  });
}

/** Runs the CLI in-process and returns stdout (for `hook settings`). */
async function cliStdout(args: string[]): Promise<string> {
  const result = await runInMemory(runCli, args, { cwd: REPO_ROOT });
  expect(result.code).toBe(0);
  return result.stdout;
}

describe('contracts/examples/ file list', () => {
  test('contracts/examples/ holds exactly the files examples.md lists', () => {
    expect(listFiles(EXAMPLES_DIR).sort()).toEqual([...EXAMPLE_FILES].sort());
  });

  test('every JSON example is 2-space JSON with a trailing newline', () => {
    for (const name of EXAMPLE_FILES.filter((file) => file.endsWith('.json'))) {
      const text = readFileSync(join(EXAMPLES_DIR, name), 'utf8');
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    }
  });
});

describe('provider configuration examples (examples.md §1–§3)', () => {
  test.each(Object.keys(CONFIG_EXAMPLES))('%s has exactly the contents of examples.md', (name) => {
    expect(readExample(name)).toEqual(CONFIG_EXAMPLES[name] as Record<string, unknown>);
  });

  test('configuration examples use timeoutMs 5000, HTTPS or loopback origins and never allowInsecureHttp', () => {
    for (const name of Object.keys(CONFIG_EXAMPLES)) {
      const text = readFileSync(join(EXAMPLES_DIR, name), 'utf8');
      expect(readExample(name)['timeoutMs']).toBe(5000);
      expect(text).not.toContain('allowInsecureHttp');
      for (const url of text.match(/[a-z]+:\/\/[^"]+/g) ?? []) expect(url.startsWith('https://') || url.startsWith('http://127.0.0.1:')).toBe(true);
    }
  });

  type Target = 'generic' | 'platform' | 'platform-preset' | 'server' | 'polardb';
  const TARGETS: Readonly<Record<string, Target>> = {
    'generic-http.json': 'generic',
    'auto-recall-generic-http.json': 'generic',
    'mem0-platform.json': 'platform',
    'auto-recall-mem0.json': 'platform',
    'mem0-write.json': 'platform',
    'mem0-platform-preset.json': 'platform-preset',
    'mem0-server.json': 'server',
    'auto-recall-mem0-server.json': 'server',
    'mem0-server-write.json': 'server',
    'polardb-mem0.json': 'polardb',
    'polardb-mem0-loopback.json': 'polardb',
  };

  test.each(Object.entries(TARGETS))('%s loads through the configuration loader and searches a loopback fake', async (name, target) => {
    const fake = { generic, platform, 'platform-preset': platform, server, polardb }[target];
    const origin = fake.origin;
    const config = substitute(readExample(name), {
      'https://context.example.com': origin,
      'https://api.mem0.ai': origin,
      'https://<your-mem0-endpoint>': origin,
      'https://<your-polardb-mem0-endpoint>': origin,
      'http://127.0.0.1:8080': origin,
      '<your-user-id>': 'u1',
      '/absolute/path/to/repository': temp,
    });
    const file = join(temp, name);
    writeFileSync(file, JSON.stringify(config));
    const { binding, provider } = await openBinding(file, CREDENTIALS, target === 'platform' ? { platformOriginForTests: origin } : {});
    expect(binding.writeEnabled).toBe(name.includes('write'));
    expect(binding.autoRecall?.repositoryRoot).toBe(name.startsWith('auto-recall-') ? temp : undefined);
    fake.reset();
    const outcome = await runSearch(provider, { query: 'deployment policy' }, { signal: AbortSignal.timeout(5000) });
    expect(outcome.status).toBe('ok');
    expect(fake.requests.length).toBe(1);
    expect(fake.requests[0]?.response.status).toBe(200);
  });
});

describe('managed MCP configurations (examples.md §4)', () => {
  test.each([
    ['managed-search-mcp.json', '/etc/external-context/search.json', ['context_search']],
    ['managed-write-mcp.json', '/etc/external-context/write.json', ['context_search', 'context_remember']],
  ])('%s pins exactly one absolute external-context server', (name, config, tools) => {
    const file = readExample(name);
    expect(Object.keys(file)).toEqual(['mcpServers']);
    const servers = file['mcpServers'] as Record<string, Record<string, unknown>>;
    expect(Object.keys(servers)).toEqual(['external-context']);
    const entry = servers['external-context'] as Record<string, unknown>;
    expect(entry).toEqual({
      command: POSIX_EXECUTABLE,
      args: ['serve', '--config', config],
      cwd: '/opt/external-context',
      timeout: 8000,
      alwaysLoadTools: true,
      includeTools: tools,
    });
    expect(posix.isAbsolute(entry['command'] as string) && posix.isAbsolute(entry['cwd'] as string)).toBe(true);
    const args = entry['args'] as string[];
    expect(args[0]).toBe('serve');
    expect(posix.isAbsolute(args[args.indexOf('--config') + 1] as string)).toBe(true);
    expect('trust' in entry || 'env' in entry).toBe(false);
  });
});

describe('managed system settings (examples.md §5)', () => {
  const FILES = {
    'managed-search-system-settings.json': { permissions: { allow: ['mcp__external-context__context_search'] } },
    'managed-auto-recall-system-settings.json': {},
    'managed-auto-recall-system-settings-windows.json': {},
    'managed-write-system-settings.json': {
      permissions: { allow: ['mcp__external-context__context_search'], ask: ['mcp__external-context__context_remember'] },
    },
    'managed-write-system-settings-windows.json': {
      permissions: { allow: ['mcp__external-context__context_search'], ask: ['mcp__external-context__context_remember'] },
    },
  } as const;

  const HOOK_ARGS: Readonly<Record<string, string[] | undefined>> = {
    'managed-search-system-settings.json': undefined,
    'managed-auto-recall-system-settings.json': ['auto-recall', '--shell', 'posix', '--executable', POSIX_EXECUTABLE, '--config', '/etc/external-context/auto-recall.json'],
    'managed-auto-recall-system-settings-windows.json': ['auto-recall', '--shell', 'powershell', '--executable', WINDOWS_EXECUTABLE, '--config', 'C:\\ProgramData\\external-context\\auto-recall.json'],
    'managed-write-system-settings.json': ['write', '--shell', 'posix', '--executable', POSIX_EXECUTABLE],
    'managed-write-system-settings-windows.json': ['write', '--shell', 'powershell', '--executable', WINDOWS_EXECUTABLE],
  };

  test.each(Object.entries(FILES))('%s has the common keys, its additions and nothing else', async (name, additions) => {
    const file = readExample(name);
    const { hooks, ...rest } = file;
    expect(rest).toEqual({ ...COMMON_SYSTEM_SETTINGS, ...additions });
    const args = HOOK_ARGS[name];
    if (args === undefined) {
      expect(hooks).toBeUndefined();
      return;
    }
    // The shipped fragment is exactly what the generator prints for the same paths.
    const generated = JSON.parse(await cliStdout(['hook', 'settings', ...args])) as { hooks: unknown };
    expect(hooks).toEqual(generated.hooks);
  });

  test('every Hook in the managed system settings has timeout 8000 and the right executable form', () => {
    for (const name of Object.keys(FILES)) {
      const hooks = (readExample(name)['hooks'] ?? {}) as Record<string, { hooks: { timeout: number; command: string; shell?: string }[] }[]>;
      for (const groups of Object.values(hooks)) {
        for (const hook of groups.flatMap((group) => group.hooks)) {
          expect(hook.timeout).toBe(8000);
          if (name.endsWith('-windows.json')) {
            expect(hook.shell).toBe('powershell');
            expect(hook.command.startsWith(`& '${WINDOWS_EXECUTABLE}' hook `)).toBe(true);
            expect(win32.isAbsolute(WINDOWS_EXECUTABLE)).toBe(true);
          } else {
            expect(hook.command.startsWith(`exec '${POSIX_EXECUTABLE}' hook `)).toBe(true);
          }
        }
      }
    }
  });

  test('permission rules carry no parenthesised specifier (Qwen Code would ignore them)', () => {
    for (const name of Object.keys(FILES)) expect(JSON.stringify(readExample(name)['permissions'] ?? {})).not.toMatch(/mcp__[^"]*\(/);
  });
});

describe('extension manifests (examples.md §6)', () => {
  const local = (): Record<string, unknown> => readExample('provider-extension-local/qwen-extension.json');
  const remote = (): Record<string, unknown> => readExample('provider-extension-remote/qwen-extension.json');
  const trial = (): Record<string, unknown> => readExample('extension/qwen-extension.json');
  const onlyServer = (manifest: Record<string, unknown>): [string, Record<string, unknown>] => {
    const servers = manifest['mcpServers'] as Record<string, Record<string, unknown>>;
    expect(Object.keys(servers)).toHaveLength(1);
    return Object.entries(servers)[0] as [string, Record<string, unknown>];
  };

  test('the starter manifest has exactly the contents of examples.md', () => {
    expect(local()).toEqual({
      name: 'provider-context-local-example',
      version: '1.0.0',
      description: 'Local adapter for the External Context Profile v1 (example)',
      mcpServers: {
        'provider-context-local-example': {
          command: 'node',
          args: ['${extensionPath}${/}dist${/}main.js'],
          cwd: '${extensionPath}',
          env: { PROVIDER_CONTEXT_BASE_URL: '${PROVIDER_CONTEXT_BASE_URL}', PROVIDER_CONTEXT_TOKEN: '${PROVIDER_CONTEXT_TOKEN}' },
          timeout: 8000,
          includeTools: ['context_search'],
        },
      },
    });
  });

  test('the remote manifest has exactly the contents of examples.md', () => {
    expect(remote()).toEqual({
      name: 'provider-context-remote-example',
      version: '1.0.0',
      description: 'Remote MCP provider for the External Context Profile v1 (example)',
      mcpServers: {
        'provider-context-remote-example': {
          httpUrl: 'https://context.example.com/mcp',
          timeout: 8000,
          includeTools: ['context_search'],
          oauth: { enabled: true, scopes: ['context.read'], audiences: ['https://context.example.com/mcp'] },
        },
      },
    });
  });

  test('the trial manifest runs this product from ${extensionPath} with args ["serve"]', () => {
    expect(trial()).toEqual({
      name: 'external-context',
      displayName: { en: 'External Context', zh: '外部上下文' },
      version: VERSION,
      mcpServers: {
        'external-context': {
          command: '${extensionPath}${/}external-context',
          args: ['serve'],
          cwd: '${extensionPath}',
          includeTools: ['context_search'],
        },
      },
    });
  });

  test('each manifest has one server keyed by its name, includeTools ["context_search"], distinct provider names', () => {
    for (const manifest of [local(), remote(), trial()]) {
      const [key, entry] = onlyServer(manifest);
      expect(key).toBe(manifest['name'] as string);
      expect(entry['includeTools']).toEqual(['context_search']);
    }
    const names = [local()['name'], remote()['name']];
    expect(new Set([...names, 'external-context']).size).toBe(3);
  });

  test('the remote manifest is HTTPS with least-privilege OAuth and no secret-looking text', () => {
    const [, entry] = onlyServer(remote());
    const url = new URL(entry['httpUrl'] as string);
    expect(url.protocol).toBe('https:');
    const oauth = entry['oauth'] as { enabled: boolean; scopes: string[]; audiences: string[] };
    expect(oauth.enabled).toBe(true);
    expect(oauth.scopes).toEqual(['context.read']);
    expect(oauth.audiences).toEqual([url.href]);
    const text = readFileSync(join(EXAMPLES_DIR, 'provider-extension-remote/qwen-extension.json'), 'utf8');
    expect(text).not.toMatch(/authorization|token|secret|api[ _]?key|trust/i);
  });

  test('local manifests take paths from ${extensionPath} and declare no settings, trust or hooks', () => {
    const [, starter] = onlyServer(local());
    expect((starter['args'] as string[])[0]?.startsWith('${extensionPath}')).toBe(true);
    const [, own] = onlyServer(trial());
    expect((own['command'] as string).startsWith('${extensionPath}')).toBe(true);
    for (const manifest of [local(), remote(), trial()]) {
      expect('settings' in manifest || 'hooks' in manifest).toBe(false);
      expect(JSON.stringify(manifest)).not.toContain('"trust"');
    }
  });
});

describe('provider-extension starter files (examples.md §6)', () => {
  test('package.json is an ES module pinning the product SDK with the single-file build script', () => {
    const pkg = readExample('provider-extension-local/package.json') as { name: string; type: string; dependencies: Record<string, string>; scripts: Record<string, string> };
    const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.name).toBe('provider-context-local-example');
    expect(pkg.type).toBe('module');
    expect(pkg.dependencies).toEqual({ '@modelcontextprotocol/sdk': root.dependencies['@modelcontextprotocol/sdk'] as string });
    expect(pkg.scripts['build']).toBe('bun build src/main.ts --target=node --outfile dist/main.js');
  });

  test('the starter imports nothing from the product: only its own provider and the MCP SDK', () => {
    const imports = ['src/main.ts', 'src/provider.ts'].flatMap((file) => [...readFileSync(join(STARTER_DIR, file), 'utf8').matchAll(/\bfrom\s+'([^']+)'/g)].map((match) => match[1] as string));
    for (const specifier of imports) expect(specifier === './provider.ts' || specifier.startsWith('@modelcontextprotocol/sdk/')).toBe(true);
  });

  test('provider.ts speaks Generic HTTP Search V1 with the two manifest variables', () => {
    const source = readFileSync(join(STARTER_DIR, 'src/provider.ts'), 'utf8');
    for (const fragment of ["'PROVIDER_CONTEXT_BASE_URL'", "'PROVIDER_CONTEXT_TOKEN'", "'/v1/context/search'", 'Bearer ${token}']) expect(source).toContain(fragment);
  });

  test('README.md says what to change, how to build and how to run conformance', () => {
    const readme = readFileSync(join(STARTER_DIR, 'README.md'), 'utf8');
    for (const fragment of ['src/provider.ts', 'npm run build', 'external-context conformance --command "node dist/main.js"']) expect(readme).toContain(fragment);
  });
});

describe('frontend MCP gateway configuration (examples.md §7)', () => {
  test('frontend-mcp.json is the seed example and loads with the normalized defaults', async () => {
    expect(readExample('frontend-mcp.json')).toEqual({
      version: 1,
      servers: {
        documents: {
          enabled: true,
          url: 'https://mcp.example.com/mcp',
          connectTimeoutMs: 8000,
          headers: { authorization: '${DOCUMENT_MCP_AUTHORIZATION}' },
          tools: {
            search: {
              enabled: true,
              readOnly: true,
              timeoutMs: 8000,
              maxResultBytes: 32768,
              maxCallsPerTurn: 2,
              description: "Search the user's configured document source.",
            },
            create_issue: { enabled: true, readOnly: false, approval: 'required', description: 'Create an issue in the configured tracker.' },
          },
        },
      },
    });
    const config = await loadFrontendMcpConfig({ path: join(EXAMPLES_DIR, 'frontend-mcp.json'), env: { DOCUMENT_MCP_AUTHORIZATION: 'Bearer example' } });
    expect(config).toEqual({
      version: 1,
      servers: [
        {
          key: 'documents',
          enabled: true,
          connectTimeoutMs: 8000,
          refreshOnListChanged: false,
          transport: { type: 'streamable-http', url: 'https://mcp.example.com/mcp', headers: { authorization: 'Bearer example' } },
          tools: {
            search: {
              enabled: true,
              readOnly: true,
              approval: 'none',
              timeoutMs: 8000,
              maxResultBytes: 32768,
              maxCallsPerTurn: 2,
              description: "Search the user's configured document source.",
            },
            create_issue: {
              enabled: true,
              readOnly: false,
              approval: 'required',
              timeoutMs: 8000,
              maxResultBytes: 32768,
              maxCallsPerTurn: 2,
              description: 'Create an issue in the configured tracker.',
            },
          },
        },
      ],
    });
  });
});

describe('launch profiles (examples.md §8.5)', () => {
  test.each(Object.keys(LAUNCH_PROFILE_EXAMPLES))('%s has exactly the contents of examples.md', (name) => {
    expect(readExample(name)).toEqual(LAUNCH_PROFILE_EXAMPLES[name] as Record<string, unknown>);
  });

  test.each(Object.keys(LAUNCH_PROFILE_EXAMPLES))('%s loads through the launcher after path substitution', async (name) => {
    const dir = (await makeTempDir('ec-launch-example-')).path;
    const repository = join(dir, 'repository');
    mkdirSync(repository);
    const qwen = join(dir, 'qwen');
    writeFileSync(qwen, '#!/bin/sh\n');
    const replacements: Record<string, string> = { '/usr/local/bin/qwen': qwen, '/absolute/path/to/repository': repository };
    for (const managed of [
      'managed-search-mcp.json',
      'managed-write-mcp.json',
      'managed-search-system-settings.json',
      'managed-write-system-settings.json',
      'managed-auto-recall-system-settings.json',
    ]) {
      copyFileSync(join(EXAMPLES_DIR, managed), join(dir, managed));
      replacements[`/etc/external-context/${managed}`] = join(dir, managed);
    }
    const profile = substitute(readExample(name), replacements);
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(profile));
    const plan = await loadLaunchPlan(file, { ...CREDENTIALS, HOME: '/home/user', TERM: 'xterm', SECRET_ELSEWHERE: 'x' });
    const source = LAUNCH_PROFILE_EXAMPLES[name] as { mcpConfig?: string; systemSettings: string; env: Record<string, string>; credentialEnv: string[] };
    expect(plan.executable).toBe(qwen);
    expect(plan.cwd).toBe(repository);
    expect(plan.args).toEqual(source.mcpConfig === undefined ? [] : ['--mcp-config', replacements[source.mcpConfig] as string]);
    const credential = source.credentialEnv[0] as string;
    expect({ ...plan.env }).toEqual({
      ...source.env,
      HOME: '/home/user',
      TERM: 'xterm',
      [credential]: TOKEN,
      QWEN_CODE_SYSTEM_SETTINGS_PATH: replacements[source.systemSettings] as string,
    });
  });
});
