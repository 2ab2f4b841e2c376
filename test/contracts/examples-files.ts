// The shipped examples as examples.md lists them: every file name under contracts/examples/,
// the spec's contents for each JSON example, and the substitutions tests apply before loading.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

/** contracts/examples/ (absolute). */
export const EXAMPLES_DIR = join(REPO_ROOT, 'contracts', 'examples');

/** The starter's folder (absolute). */
export const STARTER_DIR = join(EXAMPLES_DIR, 'provider-extension-local');

/** Reads and parses one example by its path below contracts/examples/. */
export function readExample(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(EXAMPLES_DIR, name), 'utf8')) as Record<string, unknown>;
}

/** Every file examples.md lists, by path below contracts/examples/ (the index README, then §1–§10). */
export const EXAMPLE_FILES = [
  'README.md',
  'generic-http.json',
  'mem0-platform.json',
  'mem0-platform-preset.json',
  'mem0-server.json',
  'polardb-mem0.json',
  'polardb-mem0-loopback.json',
  'auto-recall-generic-http.json',
  'auto-recall-mem0.json',
  'auto-recall-mem0-server.json',
  'mem0-write.json',
  'mem0-server-write.json',
  'managed-search-mcp.json',
  'managed-write-mcp.json',
  'managed-search-system-settings.json',
  'managed-auto-recall-system-settings.json',
  'managed-auto-recall-system-settings-windows.json',
  'managed-write-system-settings.json',
  'managed-write-system-settings-windows.json',
  'claude-code/managed-search-mcp.json',
  'claude-code/managed-search-settings.json',
  'claude-code/managed-write-mcp.json',
  'claude-code/managed-write-settings.json',
  'claude-code/managed-auto-recall-settings.json',
  'gemini-cli/managed-search-settings.json',
  'gemini-cli/managed-write-settings.json',
  'gemini-cli/managed-auto-recall-settings.json',
  'gemini-cli/external-context-policy.toml',
  'codex/search-config.toml',
  'codex/write-config.toml',
  'codex/write-requirements.toml',
  'codex/auto-recall-config.toml',
  'provider-extension-local/qwen-extension.json',
  'provider-extension-local/src/provider.ts',
  'provider-extension-local/src/main.ts',
  'provider-extension-local/package.json',
  'provider-extension-local/README.md',
  'provider-extension-remote/qwen-extension.json',
  'extension/qwen-extension.json',
  'frontend-mcp.json',
  'launch-profile-search.json',
  'launch-profile-write.json',
  'launch-profile-auto-recall.json',
  'systemd/external-context-http.service',
  'systemd/external-context-corpus.service',
] as const;

const GENERIC = { type: 'generic-http-search-v1', baseUrl: 'https://context.example.com', tokenEnv: 'CONTEXT_API_TOKEN' };
const PLATFORM = { type: 'mem0-platform-v3', apiKeyEnv: 'MEM0_API_KEY', appId: 'repository-memory' };
const SERVER = {
  type: 'mem0',
  preset: 'mem0-server-rest-2026-08',
  endpoint: { origin: 'https://<your-mem0-endpoint>', basePath: '' },
  credentialEnv: 'MEM0_API_KEY',
  scope: { userId: '<your-user-id>', agentId: 'qwen-code' },
};
const AUTO_RECALL = { repositoryRoot: '/absolute/path/to/repository', timeoutMs: 1500 };

/** The provider configurations of §1–§3 exactly as the spec gives them. */
export const CONFIG_EXAMPLES: Readonly<Record<string, unknown>> = {
  'generic-http.json': { version: 1, timeoutMs: 5000, provider: GENERIC },
  'mem0-platform.json': { version: 1, timeoutMs: 5000, provider: PLATFORM },
  'mem0-platform-preset.json': {
    version: 1,
    timeoutMs: 5000,
    provider: {
      type: 'mem0',
      preset: 'mem0-platform-v3',
      endpoint: { origin: 'https://api.mem0.ai', basePath: '' },
      credentialEnv: 'MEM0_API_KEY',
      scope: { appId: 'repository-memory' },
    },
  },
  'mem0-server.json': { version: 1, timeoutMs: 5000, provider: SERVER },
  'polardb-mem0.json': {
    version: 1,
    timeoutMs: 5000,
    provider: { ...SERVER, preset: 'polardb-mysql-2026-08', endpoint: { origin: 'https://<your-polardb-mem0-endpoint>', basePath: '' } },
  },
  'polardb-mem0-loopback.json': {
    version: 1,
    timeoutMs: 5000,
    provider: {
      type: 'mem0',
      preset: 'polardb-mysql-2026-08',
      endpoint: { origin: 'http://127.0.0.1:8080', basePath: '' },
      credentialEnv: 'MEM0_API_KEY',
      scope: { userId: '<your-user-id>' },
    },
  },
  'auto-recall-generic-http.json': { version: 2, timeoutMs: 5000, autoRecall: AUTO_RECALL, provider: GENERIC },
  'auto-recall-mem0.json': { version: 2, timeoutMs: 5000, autoRecall: AUTO_RECALL, provider: PLATFORM },
  'auto-recall-mem0-server.json': { version: 2, timeoutMs: 5000, autoRecall: AUTO_RECALL, provider: SERVER },
  'mem0-write.json': { version: 1, timeoutMs: 5000, write: { enabled: true }, provider: PLATFORM },
  'mem0-server-write.json': { version: 1, timeoutMs: 5000, write: { enabled: true }, provider: SERVER },
};

/** The administrator paths of the POSIX examples. */
export const POSIX_EXECUTABLE = '/opt/external-context/bin/external-context';
export const WINDOWS_EXECUTABLE = 'C:\\Program Files\\external-context\\external-context.exe';

const LAUNCH_ENV = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  QWEN_CODE_MEMORY_TEAM: '0',
  QWEN_CODE_MEMORY_TEAM_SYNC: '0',
  QWEN_TELEMETRY_ENABLED: '0',
  QWEN_TELEMETRY_LOG_PROMPTS: '0',
  QWEN_TELEMETRY_INCLUDE_SENSITIVE_SPAN_ATTRIBUTES: '0',
  QWEN_USAGE_STATISTICS_ENABLED: '0',
};
const LAUNCH_PASS_ENV = ['HOME', 'TERM', 'LANG', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'];

/** The launch profiles of §8.5 exactly as the spec gives them. */
export const LAUNCH_PROFILE_EXAMPLES: Readonly<Record<string, Record<string, unknown>>> = {
  'launch-profile-search.json': {
    version: 1,
    qwenExecutable: '/usr/local/bin/qwen',
    repository: '/absolute/path/to/repository',
    mcpConfig: '/etc/external-context/managed-search-mcp.json',
    systemSettings: '/etc/external-context/managed-search-system-settings.json',
    qwenArgs: [],
    env: LAUNCH_ENV,
    passEnv: LAUNCH_PASS_ENV,
    credentialEnv: ['CONTEXT_API_TOKEN'],
  },
  'launch-profile-write.json': {
    version: 1,
    qwenExecutable: '/usr/local/bin/qwen',
    repository: '/absolute/path/to/repository',
    mcpConfig: '/etc/external-context/managed-write-mcp.json',
    systemSettings: '/etc/external-context/managed-write-system-settings.json',
    qwenArgs: [],
    env: LAUNCH_ENV,
    passEnv: LAUNCH_PASS_ENV,
    credentialEnv: ['MEM0_API_KEY'],
  },
  'launch-profile-auto-recall.json': {
    version: 1,
    qwenExecutable: '/usr/local/bin/qwen',
    repository: '/absolute/path/to/repository',
    systemSettings: '/etc/external-context/managed-auto-recall-system-settings.json',
    qwenArgs: [],
    env: LAUNCH_ENV,
    passEnv: LAUNCH_PASS_ENV,
    credentialEnv: ['CONTEXT_API_TOKEN'],
  },
};

/** Keys every managed system settings file has, with their exact values (§5). */
export const COMMON_SYSTEM_SETTINGS = {
  $version: 4,
  disableAllHooks: false,
  general: { chatRecording: false },
  ui: { enableSpeculation: false },
  memory: {
    enableManagedAutoMemory: false,
    enableManagedAutoDream: false,
    enableTeamMemory: false,
    enableTeamMemorySync: false,
    enableAutoSkill: false,
  },
  slashCommands: { disabled: ['memory', 'remember', 'forget', 'dream', 'cd'] },
  tools: { approvalMode: 'default', autoAccept: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false, logPrompts: false, includeSensitiveSpanAttributes: false },
} as const;

/**
 * Replaces placeholder strings anywhere in a JSON value (`<your-user-id>` → `u1`, an origin →
 * a loopback fake, an administrator path → a temporary one).
 *
 * @param value Parsed JSON.
 * @param replacements Exact string → replacement.
 */
export function substitute<T>(value: T, replacements: Readonly<Record<string, string>>): T {
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) => (typeof item === 'string' && Object.hasOwn(replacements, item) ? replacements[item] : item)) as T;
}
