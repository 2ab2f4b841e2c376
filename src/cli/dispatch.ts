// Top-level dispatch: one table of commands, each loaded with import() only when it runs, so
// the Hook path never evaluates the MCP SDK (docs/design/style.md, "CLI: dispatch, help, exit codes").
import type { CommandModule } from './command.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './exit-codes.ts';
import { type Io, writeError, writeOut } from './io.ts';
import { UsageError } from './usage-error.ts';
import { versionLine } from '../version.ts';
import { printable } from '../util/printable.ts';

interface CommandEntry {
  readonly summary: string;
  readonly load: () => Promise<CommandModule>;
}

/** Every top-level command, in `--help` order. */
const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  serve: {
    summary: 'Run the MCP server over stdio (default), or over Streamable HTTP with --http.',
    load: () => import('./serve.ts'),
  },
  hook: {
    summary: 'Run a Qwen Code Hook (auto-recall, write-confirmation) or print Hook settings.',
    load: () => import('./hook.ts'),
  },
  check: {
    summary: 'Validate a configuration and show what it binds; --search runs one real search.',
    load: () => import('./check.ts'),
  },
  eval: {
    summary: 'Measure retrieval quality (MRR, nDCG, recall, latency) of the configured provider.',
    load: () => import('./eval.ts'),
  },
  probe: {
    summary: 'Check read-only that a Mem0 preset matches the deployed service.',
    load: () => import('./probe.ts'),
  },
  gateway: {
    summary: 'Frontend MCP gateway: discover allow-listed tools or call one read-only tool.',
    load: () => import('./gateway.ts'),
  },
  launch: {
    summary: 'Start Qwen Code from an administrator-owned launch profile.',
    load: () => import('./launch.ts'),
  },
  corpus: {
    summary: 'Build (index) or serve the reference Generic HTTP Search V1 service.',
    load: () => import('./corpus.ts'),
  },
  conformance: {
    summary: 'Check any context_search MCP server against Profile v1.',
    load: () => import('./conformance.ts'),
  },
};

/** Words accepted in place of a flag: `help` is `--help`, `version` is `--version`. */
const ALIASES: readonly string[] = ['help', 'version'];

/** Levenshtein distance, capped: anything above `max` is `max + 1`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    previous = current;
  }
  return Math.min(previous[b.length]!, max + 1);
}

/**
 * The usage line for an unknown command: the command echoed (`"`, `\\` and what printable()
 * escapes shown as `\\uXXXX`, cut to 40 code points) and the closest command when one is within two edits.
 *
 * @see docs/design/README.md, "Commands, exit codes and runtimes"
 */
export function unknownCommandMessage(typed: string): string {
  const shown = Array.from(printable(typed.replace(/["\\]/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)));
  const echoed = shown.length > 40 ? `${shown.slice(0, 40).join('')}…` : shown.join('');
  const candidates = [...Object.keys(COMMANDS), ...ALIASES];
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of candidates) {
    const distance = editDistance(typed.toLowerCase(), name, 2);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best === undefined ? `Unknown command "${echoed}". Run "external-context --help".` : `Unknown command "${echoed}". Did you mean "${best}"?`;
}

/** Top-level `--help` text. */
export function topLevelHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`);
  return [
    versionLine(),
    'Administrator-bound external context for Qwen Code and any MCP client.',
    '',
    'USAGE',
    '  external-context [command] [options]',
    '  external-context            (no arguments) same as `external-context serve`',
    '',
    'COMMANDS',
    ...lines,
    '',
    'OPTIONS',
    "  -h, --help     Show this help, or a command's help with `external-context <command> --help`.",
    '                 `external-context help [<command>]` does the same.',
    '  --version      Print the version and build commit (also `external-context version`).',
    '',
    'ENVIRONMENT',
    '  QWEN_EXTERNAL_CONTEXT_CONFIG   Absolute path of the configuration file (or pass --config).',
    '',
    'EXIT CODES',
    "  0 done, 1 failed (or a negative answer), 2 usage error; see each command's --help.",
    '',
  ].join('\n');
}

/**
 * Runs the command line and returns the exit code; never exits the process.
 *
 * @param argv Arguments after the program name.
 * @param io Streams and environment.
 * @returns The exit code for main.ts.
 */
export async function run(argv: string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) return runCommand('serve', [], io);
  if (first === '--help' || first === '-h') {
    writeOut(io, topLevelHelp());
    return EXIT_OK;
  }
  if (first === 'help') {
    // `help <command>` is `<command> --help`; `help` alone is the top-level help.
    const [topic, ...extra] = rest;
    if (topic === undefined) {
      io.stdout.write(topLevelHelp());
      return EXIT_OK;
    }
    if (extra.length > 0 || !Object.hasOwn(COMMANDS, topic)) {
      writeError(io, unknownCommandMessage(topic));
      return EXIT_USAGE;
    }
    return runCommand(topic, ['--help'], io);
  }
  if (first === '--version' || first === 'version') {
    if (rest.length > 0) {
      writeError(io, unknownCommandMessage([first, ...rest].join(' ')));
      return EXIT_USAGE;
    }
    writeOut(io, `${versionLine()}\n`);
    return EXIT_OK;
  }
  if (!Object.prototype.hasOwnProperty.call(COMMANDS, first)) {
    writeError(io, unknownCommandMessage(first));
    return EXIT_USAGE;
  }
  return runCommand(first, rest, io);
}

async function runCommand(name: string, args: string[], io: Io): Promise<number> {
  const entry = COMMANDS[name];
  if (entry === undefined) {
    writeError(io, unknownCommandMessage(name));
    return EXIT_USAGE;
  }
  const command = await entry.load();
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      writeError(io, error.stderrText());
      return EXIT_USAGE;
    }
    // Unknown errors never print their message, stack or cause (docs/design/style.md, "Errors").
    writeError(io, 'The command failed unexpectedly.');
    return EXIT_FAILURE;
  }
}
