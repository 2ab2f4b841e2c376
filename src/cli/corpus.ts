// `external-context corpus index|serve|stats`: builds, serves and describes the reference Generic HTTP Search V1
// service on SQLite FTS5 (docs/design/providers.md §8). Flag handling and messages only; the work is in corpus/.
import { dirname, resolve } from 'node:path';
import { buildIndex, type SkipReason } from '../corpus/index/build-index.ts';
import type { PermissionDescriptor } from '../runtime/permission-types.ts';
import { versionLine } from '../version.ts';
import { checkStartup, failure, stringList } from './corpus-startup.ts';
import { EXIT_OK } from './exit-codes.ts';
import { printHelp, wantsHelp } from './help.ts';
import { type Io, writeError } from './io.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';

export { CORPUS_RUNTIME_MESSAGE } from './corpus-startup.ts';

const PROGRESS_INTERVAL_MS = 100;

/** `corpus --help`. */
export const help = `${versionLine()}
Build (index) or serve the reference Generic HTTP Search V1 service on SQLite FTS5.

USAGE
  external-context corpus index <path>... --out <file> [--exclude <glob>]... [--include <glob>]...
  external-context corpus serve --db <file> --token-env <NAME>... [--listen <host:port>]
      [--log-format json|text|none] [--metrics-listen <host:port>]
  external-context corpus stats --db <file> [--json]

COMMANDS
  index   Index Markdown and text files into a new search index file.
  serve   Answer POST /v1/context/search from an index, with a bearer token.
  stats   Show what an index holds: files, chunks, size, build time, selection.

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
Index documentation and plain-text files into a new SQLite FTS5 search index.

USAGE
  external-context corpus index <path>... --out <file> [--exclude <glob>]... [--include <glob>]...

  Folders are read recursively, entries in sorted order, leaving out .git/ and everything
  the repository's .gitignore files ignore. Markdown (.md, .markdown, .mdx), AsciiDoc
  (.adoc, .asciidoc, and .txt with at least two AsciiDoc titles) and reStructuredText (.rst,
  and Sphinx's .rst.txt sources) are split at headings, then at blank-line paragraphs; other
  text at paragraphs. Chunks have at most 1000 Unicode code points. Files over 1 MiB (1048576 bytes) and binary files (U+0000 or not
  UTF-8) are skipped with a warning on stderr. Markup, style and data files found in folders
  (.html, .htm, .xhtml, .css, .js, .mjs, .cjs, .json, .xml, .svg) are skipped too, with one
  warning line per extension and its count, because their tags and code would crowd out the
  prose: name them with --include (for example '*.html' together with '*.txt') or give such a
  file directly to index them as plain text. Progress (files done / total) appears on
  stderr when it is a terminal; a summary line on stderr ends the run.

IDS AND URIS
  A chunk's uri is <relative path>#<heading anchor> (no anchor before the first heading and
  in files without headings) and its id <uri>:<ordinal>. The relative path of a file starts at the current directory when the file lies under it,
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
                     syntax, for example '*.md'). Repeatable. With --include, a markup file
                     is taken when a pattern matches it. (default: every file but markup
                     in folders)
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
  external-context corpus serve --db <file> --token-env <NAME>... [--listen <host:port>]
      [--log-format json|text|none] [--metrics-listen <host:port>]
      [--allowed-host <host[:port]>]...

  Requests need "Authorization: Bearer <token>" and a JSON body {"query": "...", "limit": 1..5}.
  Answers rank section titles and file names above body text, prefer chunks holding more of
  the query's words close together, and are empty when the query has only stop words or
  most of its words occur nowhere in the index. An index made before version 2 of the format
  keeps its old ranking until it is rebuilt with corpus index.
  GET /healthz and GET /readyz answer without a token; /readyz is 503 while the --db file is
  missing or is not an index that can be opened. A request whose Host is not the listen
  address with its port (on loopback also localhost, 127.0.0.1 or [::1]) or an --allowed-host
  value gets 403, as does one for /metrics. Once listening, the base URL is printed to stdout
  as one line; stderr gets one line per request (time, status, outcome,
  items, ms; never the query or the token). SIGHUP re-opens the index (an unreadable file
  keeps the open one). SIGINT or SIGTERM stops accepting connections, finishes requests in
  progress and exits 0.

OPTIONS
  --db <file>          Index made by \`corpus index\` (required); opened read-only.
  --token-env <NAME>   Environment variable holding the bearer token (required). Repeat it
                       to accept several tokens, e.g. the old and the new during a rotation.
  --listen <address>   host:port or [IPv6]:port; port 0 binds a free port (127.0.0.1:8787).
                       Stays on loopback unless it names another address.
  --log-format <fmt>   Request log on stderr: json, text or none (json).
  --metrics-listen <address>
                       Serve Prometheus metrics at GET /metrics on this separate address
                       (off).
  --allowed-host <host[:port]>
                       Also answer requests whose Host is this name, on the service and the
                       metrics listener: a container service name or the public name a
                       reverse proxy forwards. Without a port, any port. Repeatable. A name
                       or IP address only: no URL, path or wildcard.
  -h, --help           Show this help.

ENVIRONMENT
  <NAME>   The variable named by --token-env: no control characters, not a \${NAME}
           placeholder, at least 16 characters with at least 6 different ones. Never
           printed.

EXIT CODES
  0 after graceful shutdown, 1 startup failure (token, index, address, runtime), 2 usage error.

EXAMPLES
  CORPUS_TOKEN=$(openssl rand -hex 32) external-context corpus serve --db corpus.sqlite --token-env CORPUS_TOKEN
  external-context corpus serve --db corpus.sqlite --token-env CORPUS_TOKEN --listen '[::1]:0'
  external-context corpus serve --db corpus.sqlite --token-env CORPUS_TOKEN \\
      --listen 0.0.0.0:8787 --allowed-host corpus
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
  if (subcommand === 'serve') return wantsHelp(rest) ? printHelp(io, serveHelp) : (await import('./corpus-serve.ts')).runServe(rest, io);
  if (subcommand === 'stats') {
    const stats = await import('./corpus-stats.ts');
    return wantsHelp(rest) ? printHelp(io, stats.statsHelp) : stats.runStats(rest, io);
  }
  if (subcommand === undefined) throw new UsageError('Missing subcommand: index, serve or stats.', 'corpus');
  throw new UsageError('Unknown subcommand: use index, serve or stats.', 'corpus');
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
    const summary = await buildIndex(
      positionals,
      out,
      io.cwd,
      {
        onSkip: (path, reason) => progress.warn(`Skipped ${path}: ${SKIP_TEXT[reason]}`),
        onSkipMarkup: (extension, count) => {
          const files = plural(count, `.${extension} file`);
          progress.warn(`Skipped ${files} in the folders: markup or code, not prose; give --include '*.${extension}' to index them.`);
        },
        onProgress: (done, total) => progress.update(done, total),
      },
      { exclude: stringList(values['exclude']), include: stringList(values['include']) },
    );
    progress.end();
    writeError(io, `Indexed ${plural(summary.files, 'file')} into ${plural(summary.chunks, 'chunk')}; skipped ${plural(summary.skipped, 'file')}.`);
    return EXIT_OK;
  } catch (error) {
    progress.end();
    return failure(io, error);
  }
}

const SKIP_TEXT: Readonly<Record<SkipReason, string>> = {
  binary: 'binary file (U+0000 or not UTF-8).',
  oversize: 'larger than 1 MiB (1048576 bytes).',
  duplicate: 'listed more than once.',
  unreadable: 'cannot be read (permissions, or removed during the run).',
  'name-not-utf8': 'an entry of this folder has a name that is not UTF-8, so it cannot be an id.',
};

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
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
