// Test helper: one temporary folder per test file for configuration files.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TempFiles {
  readonly dir: string;
  /** Writes a JSON value (or raw text/bytes) and returns the absolute path. */
  write(content: unknown, name?: string): string;
  remove(): void;
}

export function createTempFiles(prefix = 'ec-gateway-'): TempFiles {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  let counter = 0;
  return {
    dir,
    write(content, name) {
      counter++;
      const file = path.join(dir, name ?? `frontend-mcp-${counter}.json`);
      writeFileSync(file, typeof content === 'string' || content instanceof Uint8Array ? content : JSON.stringify(content, null, 2));
      return file;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
