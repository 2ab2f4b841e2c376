// Strict flag parsing on top of node:util parseArgs: an unknown flag, a stray positional or a
// flag without its value becomes a UsageError (exit 2) with our own wording.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parsed flags: string/boolean values by flag name, plus positionals when allowed. */
export interface ParsedFlags {
  readonly values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  readonly positionals: string[];
}

/**
 * Parses `args` strictly.
 *
 * @param args Arguments after the command name.
 * @param options Flag declarations (`node:util` parseArgs format).
 * @param command The subcommand as typed, for the usage-error suffix.
 * @param allowPositionals Whether positional arguments are accepted.
 * @returns The parsed values and positionals.
 * @throws {UsageError} On an unknown flag, a missing value or an unexpected positional.
 */
export function parseFlags(args: string[], options: Options, command: string, allowPositionals = false): ParsedFlags {
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals });
    return { values: values as ParsedFlags['values'], positionals };
  } catch (error) {
    throw new UsageError(describeParseError(error), command, { cause: error });
  }
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /Unknown option '([^']*)'/.exec(String((error as Error).message))?.[1] ?? '';
    const name = safeFlag(flag);
    return name === 'option' ? 'Unknown option.' : `Unknown option ${name}.`;
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
