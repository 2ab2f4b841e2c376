// The runtime matrix as data (issue 26 §3): every point where the product's behaviour depends on
// the runtime it runs on (src/runtime/ holds the code that differs), and for each runtime row of
// test/support/launchers.ts whether a test must prove it there. A process-level test declares
// what it proves with `proves('<capability>', [<runtime ids>])`, written with literals so that
// test/support/runtime-capabilities.test.ts can read every declaration from the source and check
// that each capability has its proof on each row, and exactly one on each bundle (a bundle
// process costs ~0.1 s of CPU to start: one proof each, the rest on the executable).
import type { RuntimeId } from './launchers.ts';

/** Why a capability has no row on a runtime. */
export interface NotApplicable {
  readonly notApplicable: string;
}

/** One runtime-sensitive capability. */
export interface Capability {
  /** What a proof shows. */
  readonly claim: string;
  /** The source that differs per runtime. */
  readonly code: readonly string[];
  /** Per row: `proof` (a test must prove it there) or why it does not apply. */
  readonly rows: Readonly<Record<RuntimeId, 'proof' | NotApplicable>>;
}

const EVERYWHERE: Readonly<Record<RuntimeId, 'proof'>> = { executable: 'proof', 'node-bundle': 'proof', 'deno-bundle': 'proof' };

/** The capability table. */
export const CAPABILITIES = {
  'fetch-routing': {
    claim: 'A request goes where the per-target proxy decision says: absolute form and CONNECT through the proxy, NO_PROXY and loopback direct, whatever proxy variables the runtime reads itself.',
    code: ['src/runtime/fetch-bun.ts', 'src/runtime/fetch-deno.ts', 'src/runtime/fetch-node.ts', 'src/providers/outbound.ts'],
    rows: EVERYWHERE,
  },
  'proxy-refusal': {
    claim: 'Node.js refuses an applicable proxy at every entry point with the exact message and exit code, before any request.',
    code: ['src/providers/proxy.ts', 'src/runtime/proxy-runtime.ts'],
    rows: {
      executable: { notApplicable: 'Bun routes through a proxy (fetch-routing).' },
      'node-bundle': 'proof',
      'deno-bundle': { notApplicable: 'Deno routes through a proxy (fetch-routing).' },
    },
  },
  'tls-trust': {
    claim: "A CA given the runtime's way is trusted; an untrusted certificate, a CA not given, or NODE_TLS_REJECT_UNAUTHORIZED=0 fails closed with no runtime warning.",
    code: ['src/runtime/fetch-bun.ts', 'src/runtime/fetch-node.ts', 'src/runtime/trust-facts.ts'],
    rows: EVERYWHERE,
  },
  compression: {
    claim: 'A compressed body is decoded; a corrupt one fails quietly (nothing on stderr); a decompression bomb is response-too-large.',
    code: ['src/runtime/fetch-bun.ts', 'src/providers/response-body.ts'],
    rows: EVERYWHERE,
  },
  redirects: {
    claim: 'A 3xx is never followed: one request, and the answer is a redirect failure with its status.',
    code: ['src/providers/outbound.ts'],
    rows: EVERYWHERE,
  },
  'failure-classes': {
    claim: "Each loopback fault (refused, reset, DNS, proxy, TLS) gets its own class from the runtime's rejection, with a hint.",
    code: ['src/runtime/fetch-failure.ts', 'src/providers/outbound.ts'],
    rows: EVERYWHERE,
  },
  deadlines: {
    claim: 'A provider or proxy that never answers ends in the timeout class, after the fetch warm-up.',
    code: ['src/runtime/runtime-fetch.ts', 'src/util/with-deadline.ts'],
    rows: EVERYWHERE,
  },
  'node-fetch-warmup': {
    claim: "Under Node.js the deadline is armed after undici's start-up and fires under constant garbage collection.",
    code: ['src/runtime/runtime-fetch.ts'],
    rows: {
      executable: { notApplicable: 'Bun has no lazy fetch start-up.' },
      'node-bundle': 'proof',
      'deno-bundle': { notApplicable: 'Deno has no lazy fetch start-up.' },
    },
  },
  'outbound-end-to-end': {
    claim: 'The shipped build sends a search through the outbound code and prints its result: the end-to-end row behind the in-process outbound batch.',
    code: ['src/providers/outbound.ts', 'src/runtime/runtime-fetch.ts'],
    rows: EVERYWHERE,
  },
  'stdin-stdout': {
    claim: 'serve speaks MCP over stdio; stdout carries only the protocol and stderr stays empty.',
    code: ['src/runtime/stdio-flags.ts'],
    rows: EVERYWHERE,
  },
  'exit-codes': {
    claim: 'The process exits with the documented code (0, 1 or 2: --version, a failed search, an unknown command, a broken configuration) and writes only its own lines.',
    code: ['src/main.ts'],
    rows: EVERYWHERE,
  },
  'file-open': {
    claim: "An administrator's file (TOML settings) is opened, read and parsed, and a syntax error is named by line without its text.",
    code: ['src/config/read-regular-file.ts'],
    rows: EVERYWHERE,
  },
  permissions: {
    claim: 'A missing Deno permission gives the one-line message naming it.',
    code: ['src/runtime/permissions-deno.ts'],
    rows: {
      executable: { notApplicable: 'Bun grants everything.' },
      'node-bundle': { notApplicable: 'Node.js grants everything.' },
      'deno-bundle': 'proof',
    },
  },
  'http-listen': {
    claim: "serve --http and corpus serve parse the runtime server's requests the same: malformed, missing and repeated Host, JSON-RPC batches.",
    code: ['src/runtime/listen-bun.ts', 'src/runtime/listen-node.ts', 'src/runtime/listen-deno.ts'],
    rows: EVERYWHERE,
  },
  'http-read-deadline': {
    claim: "A request body that never finishes gets 408 and frees its slot; SIGTERM ends the server's stalled reads and exits 0.",
    code: ['src/runtime/listen-bun.ts', 'src/runtime/listen-node.ts', 'src/runtime/listen-deno.ts'],
    rows: EVERYWHERE,
  },
  'signals-reload': {
    claim: 'SIGHUP re-reads the configuration while a call in flight finishes on the old binding, and an invalid file keeps the binding; serve and serve --http.',
    code: ['src/cli/reload-signal.ts', 'src/cli/shutdown-signal.ts'],
    rows: EVERYWHERE,
  },
  sqlite: {
    claim: "corpus index writes an index and corpus serve answers from it through the runtime's SQLite (bun:sqlite, node:sqlite), and exits 0 on SIGTERM.",
    code: ['src/runtime/sqlite.ts', 'src/runtime/sqlite-bun.ts', 'src/runtime/sqlite-node.ts'],
    rows: {
      executable: 'proof',
      'node-bundle': { notApplicable: 'The Node.js of CI (20) has no node:sqlite; its row is sqlite-missing.' },
      'deno-bundle': 'proof',
    },
  },
  'sqlite-missing': {
    claim: 'On a Node.js without node:sqlite, corpus index and corpus serve exit 1 with the runtime message and write nothing.',
    code: ['src/runtime/sqlite-node.ts'],
    rows: {
      executable: { notApplicable: 'Bun has bun:sqlite.' },
      'node-bundle': 'proof',
      'deno-bundle': { notApplicable: 'Deno has node:sqlite.' },
    },
  },
  'corpus-files': {
    claim:
      "corpus index resolves links and folders with the runtime's realpath, lstat and stat, walks folders leaving out ignored files, never replaces an input, and corpus serve follows a replaced index.",
    code: ['src/corpus/index/collect-files.ts', 'src/corpus/serve/reloading-index.ts'],
    rows: {
      executable: 'proof',
      'node-bundle': { notApplicable: 'The Node.js of CI (20) has no node:sqlite (sqlite-missing).' },
      'deno-bundle': 'proof',
    },
  },
  'index-file-follow': {
    claim: '/readyz follows the file at --db by identity: overwritten in place, deleted or replaced by garbage it is 503 with the class, a new index or SIGHUP makes it ready again.',
    code: ['src/corpus/serve/reloading-index.ts'],
    rows: {
      executable: 'proof',
      'node-bundle': { notApplicable: 'The Node.js of CI (20) has no node:sqlite (sqlite-missing).' },
      'deno-bundle': 'proof',
    },
  },
  'index-reopen-unreadable': {
    claim: 'SIGHUP re-opens the index at --db; a file the runtime cannot open keeps the open index with one operator line.',
    code: ['src/corpus/serve/reloading-index.ts', 'src/runtime/sqlite.ts'],
    rows: {
      executable: 'proof',
      'node-bundle': { notApplicable: 'The Node.js of CI (20) has no node:sqlite (sqlite-missing).' },
      'deno-bundle': 'proof',
    },
  },
  'launch-child': {
    claim: "launch starts the client with the runtime's process spawn: the child's exit code comes back, SIGTERM is forwarded (exit 143), and Deno names --allow-run and --allow-sys when missing.",
    code: ['src/launch/run-qwen.ts', 'src/runtime/permissions-deno.ts'],
    rows: EVERYWHERE,
  },
  'conformance-command': {
    claim: 'conformance --command spawns a stdio server and runs every check against it; Deno names --allow-run when missing.',
    code: ['src/conformance/conformance-session.ts', 'src/runtime/permissions-deno.ts'],
    rows: {
      executable: 'proof',
      'node-bundle': 'proof',
      'deno-bundle': 'proof',
    },
  },
  'hook-io': {
    claim: 'A Hook reads its event from stdin, searches, and answers on stdout with exit 0 and empty stderr, and hook settings names the command the product was started by.',
    code: ['src/hooks/hook-io.ts', 'src/main.ts'],
    rows: EVERYWHERE,
  },
  'hook-stdin-chunks': {
    claim: 'Any bytes on a Hook stdin, whole or trickled in small chunks, are read to the end: exit 0, empty stderr and a valid answer.',
    code: ['src/hooks/hook-io.ts'],
    rows: EVERYWHERE,
  },
  'hook-stdin-grace': {
    claim: 'A Hook whose start-up or a stop outlasted its budget still reads the input the host wrote and closed meanwhile: the right answer late, not the invalid-request deny (hooks.md §1).',
    code: ['src/hooks/hook-io.ts', 'src/hooks/stdin-deadline.ts'],
    rows: EVERYWHERE,
  },
  'log-append': {
    claim: 'hook --log appends one line per run through O_APPEND|O_NOFOLLOW|O_NONBLOCK (Deno: --allow-write for exactly that file); a log that cannot be written changes neither answer nor exit code.',
    code: ['src/hooks/hook-log.ts'],
    rows: EVERYWHERE,
  },
  'log-without-write-permission': {
    claim: 'The shipped Deno Hook command (no --allow-write) answers as with it and writes no per-user log.',
    code: ['src/hooks/hook-log.ts', 'src/runtime/permissions-deno.ts'],
    rows: {
      executable: { notApplicable: 'Bun grants everything.' },
      'node-bundle': { notApplicable: 'Node.js grants everything.' },
      'deno-bundle': 'proof',
    },
  },
  'node-debug': {
    claim: 'NODE_DEBUG naming a network section makes a Hook send nothing and answer {}: Node.js would log host and port on stderr.',
    code: ['src/runtime/fetch-node.ts'],
    rows: {
      executable: { notApplicable: 'Bun ignores NODE_DEBUG.' },
      'node-bundle': 'proof',
      'deno-bundle': { notApplicable: 'Deno ignores NODE_DEBUG.' },
    },
  },
  'deleted-cwd': {
    claim:
      'A Hook started in a deleted working directory (process.cwd() throws ENOENT) answers {} and exits 0 with empty stderr; Deno refuses to start there before our code runs (exit 1, its own message), a documented difference (hooks.md §2.7).',
    code: ['src/main.ts'],
    rows: {
      executable: { notApplicable: "Bun's process.cwd() does not throw there; the row is Node.js's." },
      'node-bundle': 'proof',
      'deno-bundle': 'proof',
    },
  },
  'lazy-loading': {
    claim: "The bundle keeps dispatch's import() lazy: --help, --version, the Hooks and check never evaluate the MCP SDK; serve does.",
    code: ['src/cli/dispatch.ts'],
    rows: {
      executable: { notApplicable: "Bun's compiled module graph is not the bundle's chunks; start-up time is test/bench's." },
      'node-bundle': 'proof',
      'deno-bundle': { notApplicable: 'The same bundle file: one runtime shows what the bundler kept lazy.' },
    },
  },
  'parse-args': {
    claim: "corpus serve usage errors read the runtime's node:util parseArgs errors exactly (each runtime words them its own way).",
    code: ['src/cli/parse-flags.ts'],
    rows: EVERYWHERE,
  },
  'stderr-drain': {
    claim: 'A usage error into a full non-blocking stderr pipe (EAGAIN) is written once the pipe is read, before the exit with code 2.',
    code: ['src/cli/io.ts'],
    rows: EVERYWHERE,
  },
  'abort-closes-connection': {
    claim: "A cancelled context_search closes its provider connection at once and opens no other (the runtime's fetch abort).",
    code: ['src/runtime/fetch-bun.ts', 'src/runtime/fetch-deno.ts', 'src/runtime/fetch-node.ts'],
    rows: EVERYWHERE,
  },
  'early-signal': {
    claim: 'A SIGHUP after start-up began and before the server listens is recorded and runs one reload once serving; it never ends the process (serve --http, corpus serve).',
    code: ['src/main.ts', 'src/cli/reload-signal.ts'],
    rows: {
      executable: 'proof',
      'node-bundle': 'proof',
      'deno-bundle': {
        notApplicable:
          "Deno applies SIGHUP's default action until its node:process listener binds (about 0.3 s after exec), and /proc cannot tell its catcher from ours: a documented gap (docs/design/remote.md §1.13).",
      },
    },
  },
  'http-client-gone': {
    claim: "A client gone mid-body still gets its log line and bad-request count, and the concurrency slot is freed (the runtime server's aborted request).",
    code: ['src/runtime/listen-bun.ts', 'src/runtime/listen-node.ts'],
    rows: {
      executable: 'proof',
      'node-bundle': 'proof',
      'deno-bundle': 'proof',
    },
  },
  'proxy-refusal-loopback': {
    claim: 'Under Node.js the proxy refusal spares a loopback --jwks-url: serve --http starts with proxy variables set and answers.',
    code: ['src/runtime/proxy-runtime.ts'],
    rows: {
      executable: { notApplicable: 'Bun routes through a proxy (fetch-routing).' },
      'node-bundle': 'proof',
      'deno-bundle': { notApplicable: 'Deno routes through a proxy (fetch-routing).' },
    },
  },
  'node-abort-listeners': {
    claim: 'gateway discover reads 12 tools/list pages without leaving an abort listener per page: no MaxListeners warning from Node.js.',
    code: ['src/gateway/discovery/list-remote-tools.ts'],
    rows: {
      executable: { notApplicable: 'Bun prints no MaxListeners warning.' },
      'node-bundle': 'proof',
      'deno-bundle': { notApplicable: 'Deno prints no MaxListeners warning.' },
    },
  },
  'gateway-stream-memory': {
    claim: "gateway call keeps peak RSS within 64 MiB of idle under a growing SSE event, a 100 MB result, tiny-event and ping floods (each engine's heap).",
    code: ['src/gateway/discovery/stream-budget.ts'],
    rows: EVERYWHERE,
  },
  'stdin-line-bounds': {
    claim: "serve answers a stdin line over 4 MiB and one nested 1.9 million levels deep with a JSON-RPC error and bounded RSS (each engine's JSON.parse stack and strings).",
    code: ['src/runtime/stdio-flags.ts'],
    rows: EVERYWHERE,
  },
  'schema-depth': {
    claim: "A 5,000-level remote input schema is a schema error, not a stack overflow, and connectTimeoutMs 1e400 is out of range (each engine's stack and number parsing).",
    code: ['src/gateway/discovery/build-tool-candidates.ts'],
    rows: EVERYWHERE,
  },
  'admin-file-guards': {
    claim:
      "An administrator file that is a FIFO (directly or behind a link) or has a trailing slash is refused at once, and a repeated or __proto__ key is refused by field path (each runtime's fs and JSON.parse).",
    code: ['src/config/read-regular-file.ts', 'src/util/duplicate-keys.ts'],
    rows: EVERYWHERE,
  },
  'error-canaries': {
    claim:
      "No canary (credential, its variable's name, query, memory content, upstream body) reaches stdout, stderr or a tool result on any provider error path, whatever the runtime's own exception texts say.",
    code: ['src/runtime/fetch-failure.ts'],
    rows: EVERYWHERE,
  },
} as const satisfies Record<string, Capability>;

/** A capability id. */
export type CapabilityId = keyof typeof CAPABILITIES;

/**
 * Declares that the calling test proves `capability` on `runtimes`. Write both arguments as
 * literals: the checker reads them from the source.
 *
 * @returns A function giving the test-name suffix for one of the declared rows
 *   (`[proves tls-trust on deno-bundle]`); it throws for a row that was not declared.
 */
export function proves(capability: CapabilityId, runtimes: readonly RuntimeId[]): (runtime: RuntimeId) => string {
  return (runtime) => {
    if (!runtimes.includes(runtime)) throw new Error(`${capability} is not declared on ${runtime}.`);
    return `[proves ${capability} on ${runtime}]`;
  };
}
