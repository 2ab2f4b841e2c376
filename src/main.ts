// Entry point: argv, env and stdio in; exit code out. The only module that reads `process`
// globals or ends the process (docs/design/style.md, "CLI: dispatch, help, exit codes").
import process from 'node:process';
import { run } from './cli/dispatch.ts';
import type { Io } from './cli/io.ts';
import { holdReloadSignal } from './cli/reload-signal.ts';
import { CAN_GUARD_LATER, guardInheritedStdio, guardInheritedStdioSync, restoreInheritedStdio } from './runtime/stdio-flags.ts';

const startedAtMs = Date.now() - (typeof process.uptime === 'function' ? process.uptime() * 1000 : 0);

function scriptPath(): string | undefined {
  const script = process.argv[1];
  return typeof script === 'string' && /\.m?js$/.test(script) ? script : undefined;
}

/**
 * The working directory, or a harmless fallback when it cannot be read (Node.js throws ENOENT
 * for a deleted directory): `$PWD` when absolute, else the root. Read lazily, so commands that
 * never need it (the Hooks) never fail on it.
 */
function currentDirectory(): string {
  try {
    return process.cwd();
  } catch {
    const pwd = process.env['PWD'];
    return pwd !== undefined && pwd.startsWith('/') ? pwd : '/';
  }
}

/** Set once a command touched the stdout or stderr stream, which may then hold queued writes. */
let streamsUsed = false;
/** Set once a command touched the stdin stream, which then owns fd 0's reads. */
let stdinUsed = false;
/** Set once the stderr stream exists, which may then hold queued writes. */
let stderrUsed = false;

/** The descriptors `io.stdioFds` offers: none on Windows, where fd reads are not tested. */
const STDIO_FDS = process.platform === 'win32' ? undefined : ({ stdin: 0, stdout: 1, stderr: 2 } as const);

/**
 * The process's Io. The streams are getters because the runtime builds its stdio stream
 * objects on first access, which costs a compiled Bun executable more start-up time than
 * `--version` takes in all (issues 10 and 18): the Hooks, `--version`, `--help`, `check` and
 * every error line write through `stdioFds` and never create them. Once a command touched a
 * stream, `stdioFds` is undefined, so later text follows the stream's queued writes in order.
 */
function processIo(): Io {
  return {
    get stdin() {
      guardInheritedStdioSync();
      stdinUsed = true;
      return process.stdin;
    },
    get stdout() {
      guardInheritedStdioSync();
      streamsUsed = true;
      return process.stdout;
    },
    get stderr() {
      guardInheritedStdioSync();
      streamsUsed = true;
      stderrUsed = true;
      return process.stderr;
    },
    get stderrIsTty() {
      guardInheritedStdioSync();
      return process.stderr.isTTY === true;
    },
    get stdioFds() {
      return streamsUsed || stdinUsed ? undefined : STDIO_FDS;
    },
    env: process.env,
    get cwd() {
      return currentDirectory();
    },
    execPath: process.execPath,
    scriptPath: scriptPath(),
    startedAtMs,
    parentPid: process.ppid,
  };
}

/**
 * Whether the command line is a run that writes only through fds 0–2 and starts no child:
 * `--version`, `--help` and the two Hook runs. On Linux such a run leaves the stdio guard until
 * a stream getter is used: six /proc/self/fdinfo reads and three signal listeners cost every
 * run about 0.5 ms CPU (issue 18; docs/design/README.md, "Inherited stdio").
 */
function writesThroughFdsOnly(argv: readonly string[]): boolean {
  const [first, second] = argv;
  if (first === 'hook') return second === 'auto-recall' || second === 'write-confirmation';
  return first === '--version' || first === 'version' || first === '--help' || first === '-h';
}

/** Whether the command line runs a server that reloads on SIGHUP: `serve` (either transport) or `corpus serve`. */
function reloadsOnSignal(argv: readonly string[]): boolean {
  const [first, second] = argv;
  return first === 'serve' || (first === 'corpus' && second === 'serve');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // First of all, before the stdio guard's listener: a SIGHUP during start-up (systemd's
  // ExecReload right after the start) is recorded, never the end of the process
  // (docs/design/remote.md §1.13).
  if (reloadsOnSignal(argv)) holdReloadSignal();
  // Before any stream exists: the runtime may change the inherited fds' flags when it builds
  // them, and they are put back on every way out (docs/design/README.md, "Inherited stdio").
  // The stream getters record them first where the guard was left for later.
  if (!(CAN_GUARD_LATER && writesThroughFdsOnly(argv))) await guardInheritedStdio();
  let code: number;
  try {
    code = await run(argv, processIo());
  } catch {
    guardInheritedStdioSync();
    process.stderr.write('[external-context] The command failed unexpectedly.\n');
    streamsUsed = true;
    stderrUsed = true;
    code = 1;
  }
  // Exit only after stdout has drained: a pending stdin read, socket or timer must not keep
  // the process alive (docs/design/hooks.md §1, docs/design/profile-v1.md §7). A failing stdout means exit 1. With
  // no stream touched (the Hooks write their answer synchronously to fd 1) there is nothing
  // to drain, and creating the stream just to drain it would cost its start-up time.
  if (!streamsUsed) return exit(code);
  // end(), not an empty write: under Bun the callback of write('') ran before queued bytes
  // reached a pipe, and process.exit dropped them (docs/design/style.md, "CLI").
  process.stdout.end((error?: Error | null) => {
    const final = error ? 1 : code;
    // Should the queued stderr write be the last thing the event loop holds, the process ends
    // by itself once it is written: with this code, not 0.
    process.exitCode = final;
    void stderrFlushed().then(() => exit(final));
  });
}

/**
 * Resolves once the stderr stream holds no queued bytes. A full non-blocking stderr pipe makes
 * the fd write fail with EAGAIN and the line go to the stream's queue, which process.exit
 * would drop: Node.js lost the one-line usage error that way (issue 25 §5). As for stdout, a
 * reader that never reads holds the process.
 */
function stderrFlushed(): Promise<void> {
  if (!stderrUsed || process.stderr.writableLength === 0) return Promise.resolve();
  // The callback of a write runs after the writes queued before it ('drain' fires only when
  // a write returned false, which a short line under the high-water mark never does).
  return new Promise((resolve) => {
    process.stderr.once('error', () => resolve());
    process.stderr.write('', () => resolve());
  });
}

/** Ends the process with `code` once the inherited stdio flags are back as found. */
async function exit(code: number): Promise<never> {
  await restoreInheritedStdio();
  process.exit(code);
}

void main();
