// parseFlags(): typed values from the declarations, and the usage messages it builds from the runtime's
// own parseArgs errors. Those error texts belong to each runtime (Node.js, Bun, Deno implement
// node:util parseArgs separately), so the messages are pinned on the executable, the Node.js bundle and
// the Deno bundle.
import { describe, expect, test } from 'bun:test';
import { parseFlags } from '../../src/cli/parse-flags.ts';
import { UsageError } from '../../src/cli/usage-error.ts';
import { launchers } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { runProcess } from '../support/run-process.ts';

const OPTIONS = {
  db: { type: 'string' },
  json: { type: 'boolean' },
  header: { type: 'string', multiple: true },
  listen: { type: 'string', default: '127.0.0.1:8788' },
} as const;

/** Each command line, and the stderr text it must produce (before the `--help` suffix). */
const CASES: readonly (readonly [readonly string[], string])[] = [
  [['--bogus'], 'Unknown option --bogus.'],
  [['--bo gus'], 'Unknown option.'],
  [['--db'], 'Option --db is missing its value.'],
  [['--db', '-x'], 'Option --db is missing its value (write --db=<value> for a value that starts with "-").'],
  [['stray'], 'Unexpected argument.'],
];

function usageMessage(args: readonly string[]): string {
  try {
    parseFlags([...args], OPTIONS, 'corpus serve');
  } catch (error) {
    if (error instanceof UsageError) return error.stderrText();
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('parseFlags()', () => {
  test('parseFlags() types each value from its declaration and applies defaults', () => {
    const { values, positionals } = parseFlags(['--db', 'x.sqlite', '--json', '--header', 'a: b', '--header', 'c: d', 'p'], OPTIONS, 'corpus serve', true);
    const db: string | undefined = values.db;
    const json: boolean | undefined = values.json;
    const headers: string[] | undefined = values.header;
    const listen: string = values.listen;
    expect({ db, json, headers, listen, positionals }).toEqual({ db: 'x.sqlite', json: true, headers: ['a: b', 'c: d'], listen: '127.0.0.1:8788', positionals: ['p'] });
  });

  test('parseFlags() turns every parseArgs failure into one UsageError line with the --help suffix', () => {
    for (const [args, message] of CASES) expect(usageMessage(args)).toBe(`${message} Run "external-context corpus serve --help".`);
  });

  test('parseFlags() suggests the one declared flag within two edits of an unknown one (one edit for short names)', () => {
    const suffix = ' Run "external-context corpus serve --help".';
    expect(usageMessage(['--jsno'])).toBe(`Unknown option --jsno; did you mean --json?${suffix}`);
    expect(usageMessage(['--listne=x'])).toBe(`Unknown option --listne; did you mean --listen?${suffix}`);
    expect(usageMessage(['--headr', 'a'])).toBe(`Unknown option --headr; did you mean --header?${suffix}`);
    expect(usageMessage(['--dbx'])).toBe(`Unknown option --dbx; did you mean --db?${suffix}`);
    expect(usageMessage(['--verbose'])).toBe(`Unknown option --verbose.${suffix}`);
    const withConfig = (): string => {
      try {
        parseFlags(['--confg', '/x'], OPTIONS, 'check', false, ['config']);
      } catch (error) {
        return (error as UsageError).stderrText();
      }
      return '';
    };
    expect(withConfig()).toBe('Unknown option --confg; did you mean --config? Run "external-context check --help".');
  });

  test('parseFlags() never echoes a value that is not a flag name', () => {
    expect(usageMessage(['--canary=secret-value'])).toBe('Unknown option --canary. Run "external-context corpus serve --help".');
    expect(usageMessage(['--db', '-secret value'])).not.toContain('secret');
  });
});

const PARSE_ARGS = proves('parse-args', ['executable', 'node-bundle', 'deno-bundle']);

describe('parseFlags() messages on every runtime', () => {
  for (const launcher of launchers()) {
    test(`${launcher.label}: corpus serve usage errors read the runtime's parseArgs errors exactly ${PARSE_ARGS(launcher.id)}`, async () => {
      for (const [args, message] of CASES) {
        const result = await runProcess(launcher.command, [...launcher.args, 'corpus', 'serve', ...args]);
        expect({ args, code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
          args,
          code: 2,
          stdout: '',
          stderr: `[external-context] ${message} Run "external-context corpus serve --help".\n`,
        });
      }
    });
  }
});
