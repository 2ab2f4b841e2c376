// What the corpus commands share: the runtime gate and Deno permissions at start, and the one
// stderr line of each failure (docs/design/providers.md §8).
import { CorpusError } from '../corpus/corpus-error.ts';
import { ListenError } from '../corpus/serve/start-corpus-service.ts';
import { listenFailureCause } from '../runtime/listen.ts';
import type { PermissionDescriptor } from '../runtime/permission-types.ts';
import { missingPermission, permissionMessage } from '../runtime/permissions.ts';
import { sqliteSupported, SqliteUnavailableError } from '../runtime/sqlite.ts';
import { EXIT_FAILURE } from './exit-codes.ts';
import { type Io, writeError } from './io.ts';

/** The runtime message of the docs/design/README.md ("Runtimes"), printed verbatim. */
export const CORPUS_RUNTIME_MESSAGE = 'corpus commands need Bun, Deno, or Node.js 22.13 or later.';

// Runtime gate, then Deno permissions; undefined when the command may start.
export async function checkStartup(io: Io, permissions: readonly PermissionDescriptor[]): Promise<number | undefined> {
  if (!sqliteSupported()) {
    writeError(io, CORPUS_RUNTIME_MESSAGE);
    return EXIT_FAILURE;
  }
  const missing = await missingPermission(permissions);
  if (missing !== undefined) {
    writeError(io, permissionMessage(missing));
    return EXIT_FAILURE;
  }
  return undefined;
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Writes the one stderr line of a known failure and returns 1; rethrows anything else. */
export function failure(io: Io, error: unknown): number {
  if (error instanceof SqliteUnavailableError) writeError(io, CORPUS_RUNTIME_MESSAGE);
  else if (error instanceof ListenError) writeError(io, `The service cannot listen on ${error.address}: ${listenFailureCause(error.cause)}.`);
  else if (error instanceof CorpusError) writeError(io, corpusErrorText(error));
  else throw error;
  return EXIT_FAILURE;
}

/** The message of a corpus error (docs/design/providers.md §8). */
export function corpusErrorText(error: CorpusError): string {
  switch (error.kind) {
    case 'input-unreadable':
      return `The input path ${error.path} does not exist or cannot be read.`;
    case 'output-unwritable':
      return 'The --out file cannot be written.';
    case 'output-is-input':
      return 'The --out file is one of the inputs or lies inside an input folder; choose a path outside them.';
    case 'output-not-index':
      return 'The --out file exists and is not an index made by corpus index; it was left unchanged.';
    case 'index-unreadable':
      return 'The --db file cannot be opened as an index made by corpus index.';
  }
}
