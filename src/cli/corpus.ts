// `external-context corpus index|serve`: builds and serves the reference Generic HTTP Search V1
// service on SQLite FTS5 (docs/design/providers.md §8). Flag handling and messages only; the work is in corpus/.
import { dirname, resolve } from 'node:path';
import { isUsableCredential, looksLikeVariableName, PASTED_CREDENTIAL_TEXT } from '../config/credential.ts';
import { buildIndex, type SkipReason } from '../corpus/index/build-index.ts';
import { CorpusError } from '../corpus/corpus-error.ts';
import { DEFAULT_LISTEN, parseListenAddress } from '../corpus/serve/listen-address.ts';
import { ListenError, startCorpusService } from '../corpus/serve/start-corpus-service.ts';
import { markInteractive } from '../runtime/jit.ts';
import { listenFailureCause } from '../runtime/listen.ts';
import type { PermissionDescriptor } from '../runtime/permission-types.ts';
import { missingPermission, permissionMessage } from '../runtime/permissions.ts';
import { sqliteSupported, SqliteUnavailableError } from '../runtime/sqlite.ts';
import { versionLine } from '../version.ts';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.ts';
import { printHelp, wantsHelp } from './help.ts';
import { type Io, writeError, writeLine } from './io.ts';
import { parseFlags } from './parse-flags.ts';
import { shutdownSignal } from './shutdown-signal.ts';
import { UsageError } from './usage-error.ts';
import { ownEnv } from '../util/own-env.ts';

/** The runtime message of the docs/design/README.md ("Runtimes"), printed verbatim. */
export const CORPUS_RUNTIME_MESSAGE = 'corpus commands need Bun, Deno, or Node.js 22.13 or later.';

const PROGRESS_INTERVAL_MS = 100;

/** `corpus --help`. */
export const help = `${versionLine()}
Build (index) or serve the reference Generic HTTP Search V1 service on SQLite FTS5.

USAGE
  external-context corpus index <path>... --out <file> [--exclude <glob>]... [--include <glob>]...
  external-context corpus serve --db <file> --token-env <NAME> [--listen <host:port>]

COMMANDS
  index   Index Markdown and text files into a new search index file.
  serve   Answer POST /v1/context/search from an index, with a bearer token.

OPTIONS
  -h, --help   Show this help; \`corpus index --help\` and \`corpus serve --help\` show more.

RUNTIMES
  Bun (the executable), Deno, or Node.js 22.13 or later.

EXIT CODES
  0 done, 1 failed (including an unsupported runtime), 2 usage error.

EXAMPLES
  external-context corpus index README.md docs/ --out corpus.sqlite
  external-context corpus serve --db corpus.sqlite --token-env CORPUS_TOKEN
`;

/** `corpus index --help`. */
export const indexHelp = `${versionLine()}
Index Markdown and plain-text files into a new SQLite FTS5 search index.

USAGE
  external-context corpus index <path>... --out <file> [--exclude <glob>]... [--include <glob>]...

  Folders are read recursively, entries in sorted order, leaving out .git/ and everything
  the repository's .gitignore files ignore. Markdown (.md, .markdown) is split
  at headings, then at blank-line paragraphs; other text at paragraphs. Chunks have at most
  1000 Unicode code points. Files over 1 MiB (1048576 bytes) and binary files (U+0000 or not
  UTF-8) are skipped with a warning on stderr. Progress (files done / total) appears on
  stderr when it is a terminal; a summary line on stderr ends the run.

IDS AND URIS
  A chunk's uri is <relative path>#<heading anchor> (no anchor before the first heading and
  outside Markdown) and its id <uri>:<ordinal>. The relative path of a file starts at the current directory when the file lies under it,
  else at the folder that contains the <path> argument. So the same files run from the same
  place give the same ids, but the place matters: from /work, "corpus index
  /work/srv/team-docs" gives srv/team-docs/deploy.md#…; from elsewhere it gives
  team-docs/deploy.md#…. Ids and uris reach the model, so they show that part of your folder
  layout. For ids of the corpus alone, run it inside the corpus: cd /srv/team-docs &&
  external-context corpus index . --out <file>.

OPTIONS
  --out <file>       Index file to write (required). Written to a temporary file in the same
                     folder and renamed at the end, so a failed run leaves the old file
                     intact. It must lie outside every input, and an existing file is only
                     replaced when it is an index made by corpus index.
  --exclude <glob>   Leave out files and folders whose relative path matches (gitignore
                     syntax, for example 'drafts/' or '*.log'). Repeatable.
  --include <glob>   Take only files whose relative path matches one of these (gitignore
                     syntax, for example '*.md'). Repeatable. (default: every file)
  -h, --help         Show this help.

RUNTIMES
  Bun (the executable), Deno with --allow-write, or Node.js 22.13 or later.

EXIT CODES
  0 indexed, 1 failed (unreadable input, unwritable output, an --out inside the inputs or
  not made by corpus index, unsupported runtime), 2 usage error.

EXAMPLES
  external-context corpus index README.md docs/ --out corpus.sqlite
`;

/** `corpus serve --help`. */
export const serveHelp = `${versionLine()}
Serve an index as a Generic HTTP Search V1 service: POST /v1/context/search.

USAGE
  external-context corpus serve --db <file> --token-env <NAME> [--listen <host:port>]

  Requests need "Authorization: Bearer <token>" and a JSON body {"query": "...", "limit": 1..5}.
  Once listening, the base URL is printed to stdout as one line. SIGINT or SIGTERM stops
  accepting connections, finishes requests in progress and exits 0.

OPTIONS
  --db <file>          Index made by \`corpus index\` (required); opened read-only.
  --token-env <NAME>   Environment variable holding the bearer token (required).
  --listen <address>   host:port or [IPv6]:port; port 0 binds a free port (127.0.0.1:8787).
                       Stays on loopback unless it names another address.
  -h, --help           Show this help.

ENVIRONMENT
  <NAME>   The variable named by --token-env: non-blank, no control characters, not a
           \${NAME} placeholder. Never printed.

EXIT CODES
  0 after graceful shutdown, 1 startup failure (token, index, address, runtime), 2 usage error.

EXAMPLES
  CORPUS_TOKEN=$(openssl rand -hex 32) external-context corpus serve --db corpus.sqlite --token-env CORPUS_TOKEN
  external-context corpus serve --db corpus.sqlite --token-env CORPUS_TOKEN --listen '[::1]:0'
`;

/**
 * Runs `corpus <subcommand> …`.
 *
 * @param args Arguments after `corpus`.
 * @param io Streams and environment.
 * @returns The exit code.
 * @throws {UsageError} On a missing or unknown subcommand or a bad flag.
 * @see docs/design/providers.md §8
 */
export async function run(args: string[], io: Io): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === '--help' || subcommand === '-h') return printHelp(io, help);
  if (subcommand === 'index') return wantsHelp(rest) ? printHelp(io, indexHelp) : runIndex(rest, io);
  if (subcommand === 'serve') return wantsHelp(rest) ? printHelp(io, serveHelp) : runServe(rest, io);
  if (subcommand === undefined) throw new UsageError('Missing subcommand: index or serve.', 'corpus');
  throw new UsageError('Unknown subcommand: use index or serve.', 'corpus');
}

async function runIndex(args: string[], io: Io): Promise<number> {
  const flags = { out: { type: 'string' }, exclude: { type: 'string', multiple: true }, include: { type: 'string', multiple: true } } as const;
  const { values, positionals } = parseFlags(args, flags, 'corpus index', true);
  const out = values['out'];
  if (typeof out !== 'string' || out === '') throw new UsageError('Option --out needs the path of the index file to write.', 'corpus index');
  if (positionals.length === 0) throw new UsageError('Give at least one file or folder to index.', 'corpus index');
  const blocked = await checkStartup(io, [
    ...positionals.map((path): PermissionDescriptor => ({ name: 'read', target: resolve(io.cwd, path) })),
    { name: 'write', target: dirname(resolve(io.cwd, out)) },
  ]);
  if (blocked !== undefined) return blocked;
  const progress = new ProgressLine(io);
  try {
    const summary = await buildIndex(positionals, out, io.cwd, {
      onSkip: (path, reason) => progress.warn(`Skipped ${path}: ${SKIP_TEXT[reason]}`),
      onProgress: (done, total) => progress.update(done, total),
    }, { exclude: stringList(values['exclude']), include: stringList(values['include']) });
    progress.end();
    writeError(io, `Indexed ${plural(summary.files, 'file')} into ${plural(summary.chunks, 'chunk')}; skipped ${plural(summary.skipped, 'file')}.`);
    return EXIT_OK;
  } catch (error) {
    progress.end();
    return failure(io, error);
  }
}

async function runServe(args: string[], io: Io): Promise<number> {
  const options = { db: { type: 'string' }, 'token-env': { type: 'string' }, listen: { type: 'string', default: DEFAULT_LISTEN } } as const;
  const { values } = parseFlags(args, options, 'corpus serve');
  const db = values['db'];
  const tokenEnv = values['token-env'];
  if (typeof db !== 'string' || db === '') throw new UsageError('Option --db needs the path of an index made by corpus index.', 'corpus serve');
  if (typeof tokenEnv !== 'string' || tokenEnv === '') {
    throw new UsageError('Option --token-env needs the name of the variable that holds the token.', 'corpus serve');
  }
  const address = parseListenAddress(values['listen']);
  if (address === undefined) {
    throw new UsageError('Option --listen needs host:port or [IPv6]:port with a port from 0 to 65535.', 'corpus serve');
  }
  const blocked = await checkStartup(io, [
    { name: 'read', target: resolve(io.cwd, db) },
    { name: 'env', target: tokenEnv },
    { name: 'net', target: address.hostname },
  ]);
  if (blocked !== undefined) return blocked;
  // docs/design/config.md §7.1: the message never names the variable.
  const token = ownEnv(io.env, tokenEnv);
  if (token === undefined && !looksLikeVariableName(tokenEnv)) {
    // As check says of a credential field (docs/design/config.md §11): the value is never shown.
    writeError(io, `The service token is unavailable: --token-env ${PASTED_CREDENTIAL_TEXT.replace('credential', 'token')} Pass the name of the variable that holds the token, and rotate the token: a command line is visible to other users.`);
    return EXIT_FAILURE;
  }
  if (!isUsableCredential(token)) {
    writeError(io, 'The service token is unavailable: the variable given to --token-env must hold a non-blank value without control characters.');
    return EXIT_FAILURE;
  }
  let service;
  try {
    service = await startCorpusService({ dbPath: db, cwd: io.cwd, token, address });
  } catch (error) {
    return failure(io, error);
  }
  // Handlers first, so a signal sent right after the URL line is seen.
  const stopped = shutdownSignal();
  writeLine(io.stdout, service.url);
  // Start-up is over: steady-state searches get the normal JIT policy (build/compile.ts).
  void markInteractive();
  await stopped;
  await service.close();
  return EXIT_OK;
}

// Runtime gate, then Deno permissions; undefined when the command may start.
async function checkStartup(io: Io, permissions: readonly PermissionDescriptor[]): Promise<number | undefined> {
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

const SKIP_TEXT: Readonly<Record<SkipReason, string>> = {
  binary: 'binary file (U+0000 or not UTF-8).',
  oversize: 'larger than 1 MiB (1048576 bytes).',
  duplicate: 'listed more than once.',
  unreadable: 'cannot be read (permissions, or removed during the run).',
  'name-not-utf8': 'an entry of this folder has a name that is not UTF-8, so it cannot be an id.',
};

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function failure(io: Io, error: unknown): number {
  if (error instanceof SqliteUnavailableError) writeError(io, CORPUS_RUNTIME_MESSAGE);
  else if (error instanceof ListenError) writeError(io, `The service cannot listen on ${error.address}: ${listenFailureCause(error.cause)}.`);
  else if (error instanceof CorpusError) writeError(io, corpusErrorText(error));
  else throw error;
  return EXIT_FAILURE;
}

function corpusErrorText(error: CorpusError): string {
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

// Progress on stderr only when it is a terminal (docs/design/providers.md §8.1), redrawn at most every 100 ms.
class ProgressLine {
  readonly #io: Io;
  #shown = false;
  #lastMs = 0;

  constructor(io: Io) {
    this.#io = io;
  }

  update(done: number, total: number): void {
    if (!this.#io.stderrIsTty) return;
    const now = Date.now();
    if (done !== total && now - this.#lastMs < PROGRESS_INTERVAL_MS) return;
    this.#lastMs = now;
    this.#io.stderr.write(`\r\u001b[2K[external-context] Indexing: ${done}/${total} files`);
    this.#shown = true;
  }

  warn(message: string): void {
    this.#clear();
    writeError(this.#io, message);
  }

  end(): void {
    this.#clear();
  }

  #clear(): void {
    if (!this.#shown) return;
    this.#io.stderr.write('\r\u001b[2K');
    this.#shown = false;
  }
}
