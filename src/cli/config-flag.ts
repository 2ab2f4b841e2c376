// `--config` handling shared by serve, check and the Hooks: a missing, empty or relative
// value is a configuration error (exit 1), not a usage error (docs/design/config.md §2), so the flag is
// taken out before strict parsing.
import type { ConfigFlag } from '../config/locate.ts';

/** The arguments without `--config`, and the flag as found (undefined, null = no value, or the value). */
export interface ExtractedConfigFlag {
  readonly rest: string[];
  readonly config: ConfigFlag;
}

/**
 * Removes every `--config <value>` / `--config=<value>` from `args` (the last one wins).
 *
 * @returns `config` is `null` when the flag ends the line without a value.
 */
export function extractConfigFlag(args: readonly string[]): ExtractedConfigFlag {
  const rest: string[] = [];
  let config: ConfigFlag;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--') {
      rest.push(...args.slice(index));
      break;
    }
    if (arg === '--config') {
      const value = args[index + 1];
      config = value === undefined ? null : value;
      index++;
    } else if (arg.startsWith('--config=')) {
      config = arg.slice('--config='.length);
    } else {
      rest.push(arg);
    }
  }
  return { rest, config };
}
