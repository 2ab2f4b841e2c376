// Test helper for the config tests and `check` tests: writes configuration files (JSON values,
// raw text or raw bytes) into one temporary folder per test file and removes it afterwards.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A temporary folder that holds configuration files and repository roots. */
export interface TempConfigDir {
  /** Canonical absolute path of the folder. */
  readonly dir: string;
  /** Writes `content` (a value is serialized as JSON) to a fresh file and returns its absolute path. */
  write(content: unknown, name?: string): string;
  /** Creates a sub-folder and returns its absolute path. */
  mkdir(name: string): string;
  /** Removes the folder and everything in it. */
  remove(): void;
}

/**
 * Creates a temporary folder for configuration files.
 *
 * @param prefix Folder-name prefix under the OS temporary directory.
 */
export function createTempConfigDir(prefix = 'ec-config-'): TempConfigDir {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  let counter = 0;
  return {
    dir,
    write(content, name) {
      counter += 1;
      const file = path.join(dir, name ?? `config-${counter}.json`);
      const data = typeof content === 'string' || content instanceof Uint8Array ? content : JSON.stringify(content, null, 2);
      writeFileSync(file, data);
      return file;
    },
    mkdir(name) {
      const sub = path.join(dir, name);
      mkdirSync(sub, { recursive: true });
      return sub;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A valid version 1 Generic HTTP configuration (credential variable `CONTEXT_TOKEN`). */
export function genericConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 1,
    provider: { type: 'generic-http-search-v1', baseUrl: 'https://search.example', tokenEnv: 'CONTEXT_TOKEN' },
    ...overrides,
  };
}

/** A valid version 1 legacy Platform configuration (credential variable `MEM0_API_KEY`). */
export function platformConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 1,
    provider: { type: 'mem0-platform-v3', apiKeyEnv: 'MEM0_API_KEY', appId: 'repository-memory' },
    ...overrides,
  };
}

/** The smallest valid scope of each preset. */
export const MINIMAL_SCOPES = {
  'mem0-platform-v3': { appId: 'repository-memory' },
  'mem0-server-rest-2026-08': { userId: 'u1' },
  'polardb-mysql-2026-08': { userId: 'u1' },
} as const;

/** A valid version 1 `mem0` preset configuration (credential variable `MEM0_KEY`). */
export function presetConfig(preset: keyof typeof MINIMAL_SCOPES, provider: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 1,
    provider: {
      type: 'mem0',
      preset,
      endpoint: { origin: 'https://mem0.example' },
      credentialEnv: 'MEM0_KEY',
      scope: { ...MINIMAL_SCOPES[preset] },
      ...provider,
    },
    ...overrides,
  };
}
