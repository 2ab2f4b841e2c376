// The credential: read once from the environment with an own-property lookup, never named
// or echoed in any message (docs/design/config.md §7.1).
import { ConfigError } from './config-error.ts';
import { ownEnv } from '../util/own-env.ts';

const PLACEHOLDER = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;
// A value with a C0 control or DEL cannot be sent as an HTTP header (docs/design/config.md §7.1).
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Whether a value can serve as a credential: a string that is not blank, not an unresolved
 * `${NAME}` placeholder and free of control characters.
 */
export function isUsableCredential(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && !PLACEHOLDER.test(value) && !CONTROL.test(value);
}

/**
 * Resolves the credential named by a config field.
 *
 * @param env The environment; only own properties are read.
 * @param variableName Value of `tokenEnv` / `apiKeyEnv` / `credentialEnv`.
 * @param field Field name for the message suffix (`tokenEnv`, `apiKeyEnv`, `credentialEnv`).
 * @returns The credential value, unmodified.
 * @throws {ConfigError} `Configured external context credential is unavailable. Field: provider.<field>.`
 * @see docs/design/config.md §6 step 4, §7.1
 */
export function resolveCredential(
  env: Readonly<Record<string, string | undefined>>,
  variableName: string,
  field: 'tokenEnv' | 'apiKeyEnv' | 'credentialEnv',
): string {
  const value = ownEnv(env, variableName);
  if (!isUsableCredential(value)) {
    throw new ConfigError(
      `Configured external context credential is unavailable. Field: provider.${field}.`,
      `provider.${field}`,
    );
  }
  return value;
}
