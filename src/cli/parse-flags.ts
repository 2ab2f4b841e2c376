// Strict flag parsing on top of node:util parseArgs: an unknown flag, a stray positional or a
// flag without its value becomes a UsageError (exit 2) with our own wording.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestName } from '../util/closest-name.ts';
import { UsageError } from './usage-error.ts';

/** Flag declarations in `node:util` parseArgs format; declare them `as const` for typed values. */
export type FlagOptions = NonNullable<ParseArgsConfig['options']>;

/** The strict parseArgs configuration that `options` make. */
interface StrictConfig<O extends FlagOptions> {
  args: string[];
  options: O;
  strict: true;
  allowPositionals: boolean;
}

/**
 * Parsed flags: each declared flag's value typed from its declaration (`string`, `boolean`,
 * arrays for `multiple`, never undefined when it has a `default`), plus positionals when allowed.
 */
export interface ParsedFlags<O extends FlagOptions> {
  readonly values: ReturnType<typeof parseArgs<StrictConfig<O>>>['values'];
  readonly positionals: string[];
}

/**
 * Parses `args` strictly.
 *
 * @param args Arguments after the command name.
 * @param options Flag declarations (`node:util` parseArgs format).
 * @param command The subcommand as typed, for the usage-error suffix.
 * @param allowPositionals Whether positional arguments are accepted.
 * @param otherFlags Flags the command takes outside `options` (`config`, taken out before
 *   parsing), offered too when an unknown flag is within two edits of one.
 * @returns The parsed values and positionals.
 * @throws {UsageError} On an unknown flag (`Unknown option --x; did you mean --y?` when one
 *   declared flag is that close), a missing value or an unexpected positional. The
 *   message is read from the runtime's parseArgs error (`code` and text); test/cli/parse-flags.test.ts
 *   pins it on the executable, the Node.js bundle and the Deno bundle.
 */
export function parseFlags<const O extends FlagOptions>(args: string[], options: O, command: string, allowPositionals = false, otherFlags: readonly string[] = []): ParsedFlags<O> {
  try {
    const config: StrictConfig<O> = { args, options, strict: true, allowPositionals };
    const { values, positionals } = parseArgs(config);
    return { values, positionals };
  } catch (error) {
    throw new UsageError(describeParseError(error, [...Object.keys(options), ...otherFlags]), command, { cause: error });
  }
}

function describeParseError(error: unknown, known: readonly string[]): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /Unknown option '([^']*)'/.exec(String((error as Error).message))?.[1] ?? '';
    const name = safeFlag(flag);
    if (name === 'option') return 'Unknown option.';
    const suggestion = closestName(name, known);
    return suggestion === undefined ? `Unknown option ${name}.` : `Unknown option ${name}; did you mean --${suggestion}?`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return 'Unexpected argument.';
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const message = String((error as Error).message);
    // A value that starts with "-" is taken for a flag ("argument is ambiguous"): name the long
    // flag and the form that passes such a value.
    const ambiguous = /argument is ambiguous/.test(message) ? (/for '(--[^']*)'/.exec(message)?.[1] ?? '') : '';
    const flag = ambiguous !== '' ? ambiguous : (/Option '(-[^ ',]*)/.exec(message)?.[1] ?? '');
    const name = safeFlag(flag);
    if (name === 'option') return 'An option is missing its value.';
    if (ambiguous !== '') return `Option ${name} is missing its value (write ${name}=<value> for a value that starts with "-").`;
    return `Option ${name} is missing its value.`;
  }
  return 'Invalid command line.';
}

// Flags are echoed only when they look like a flag name, never an arbitrary value.
function safeFlag(flag: string): string {
  const name = flag.split('=')[0] ?? flag;
  return /^--?[A-Za-z0-9][A-Za-z0-9-]{0,40}$/.test(name) ? name : 'option';
}
