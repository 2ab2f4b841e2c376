// The probe's own argument loop (docs/design/probe.md §1.1): `--name value` pairs and two boolean flags,
// no `--name=value`, fixed messages printed verbatim (no `--help` hint).
import { UsageError } from './usage-error.ts';

/** The value flags and the field each one sets. */
const VALUE_FLAGS = {
  '--preset': 'preset',
  '--origin': 'origin',
  '--base-path': 'basePath',
  '--user-id': 'userId',
  '--agent-id': 'agentId',
  '--app-id': 'appId',
  '--credential-env': 'credentialEnv',
  '--config': 'config',
} as const;

/** The boolean flags and the field each one sets. */
const BOOLEAN_FLAGS = {
  '--allow-insecure-http': 'allowInsecureHttp',
  '--json': 'json',
} as const;

type ValueField = (typeof VALUE_FLAGS)[keyof typeof VALUE_FLAGS];

/** The probe command line as given; nothing is validated beyond its shape. */
export interface ProbeArgs {
  readonly preset?: string;
  readonly origin?: string;
  readonly basePath?: string;
  readonly userId?: string;
  readonly agentId?: string;
  readonly appId?: string;
  readonly credentialEnv?: string;
  readonly config?: string;
  readonly allowInsecureHttp: boolean;
  readonly json: boolean;
}

function verbatim(message: string): UsageError {
  return new UsageError(message, 'probe', { verbatim: true });
}

/**
 * Parses the probe's arguments.
 *
 * A value flag takes the next argument as its value unless there is none or it starts with
 * `--`. A repeated flag keeps its last value. After the loop, `--config` may only be
 * combined with `--json`.
 *
 * @param args Arguments after `probe`.
 * @returns The flags by field; booleans default to false.
 * @throws {UsageError} (verbatim) `Unknown probe argument: <argument>` for an unknown flag,
 *   a stray value or any `--x=y` form; `<flag> requires a value.`; `--config cannot be
 *   combined with other probe arguments.`
 * @see docs/design/probe.md §1.1
 */
export function parseProbeArgs(args: readonly string[]): ProbeArgs {
  const values: Partial<Record<ValueField, string>> = {};
  const flags = { allowInsecureHttp: false, json: false };
  let otherThanConfigOrJson = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (Object.hasOwn(VALUE_FLAGS, arg)) {
      const field = VALUE_FLAGS[arg as keyof typeof VALUE_FLAGS];
      const value = args[index + 1];
      if (value === undefined || value.startsWith('--')) throw verbatim(`${arg} requires a value.`);
      values[field] = value;
      if (field !== 'config') otherThanConfigOrJson = true;
      index += 1;
    } else if (Object.hasOwn(BOOLEAN_FLAGS, arg)) {
      const field = BOOLEAN_FLAGS[arg as keyof typeof BOOLEAN_FLAGS];
      flags[field] = true;
      if (field !== 'json') otherThanConfigOrJson = true;
    } else {
      throw verbatim(`Unknown probe argument: ${arg}`);
    }
  }
  if (values.config !== undefined && otherThanConfigOrJson) {
    throw verbatim('--config cannot be combined with other probe arguments.');
  }
  return { ...values, ...flags };
}
