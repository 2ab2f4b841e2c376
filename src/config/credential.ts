// The credential: read once from the environment with an own-property lookup, never named
// or echoed in any message (docs/design/config.md §7.1).
import { ConfigError } from './config-error.ts';
import { ownEnv } from '../util/own-env.ts';

const PLACEHOLDER = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;
/**
 * Whether a name in `tokenEnv`, `apiKeyEnv` or `credentialEnv` looks like a variable name an
 * administrator writes (docs/design/config.md §11): UPPER_SNAKE (`^[A-Z][A-Z0-9_]*$`), and not
 * 16 or more characters with a digit and no underscore (the shape of an access key id). An
 * unset variable whose name fails this may be a pasted credential, so output never shows it.
 *
 * @param name A name that already passed the variable-name pattern of the schema.
 * @returns True when the name may be printed.
 */
export function looksLikeVariableName(name: string): boolean {
  if (!/^[A-Z][A-Z0-9_]*$/u.test(name)) return false;
  return !(name.length >= 16 && !name.includes('_') && /[0-9]/u.test(name));
}

/** Operator text for an unset variable whose name may be a pasted credential (never the name). */
export const PASTED_CREDENTIAL_TEXT = 'names a variable that is not set; the name does not look like a variable name: was the credential itself pasted there?';

/**
 * Why a string cannot be sent as (part of) an HTTP header value: `control` for a C0 control
 * or DEL, `above-latin1` for a character above U+00FF (fetch's Headers accept only byte
 * strings). The one header rule the loader and `check` share.
 *
 * @param value Any string.
 * @returns The problem, or undefined when the value can be sent.
 * @see docs/design/config.md §7.1
 */
export function headerValueProblem(value: string): 'control' | 'above-latin1' | undefined {
  if (/[\u0000-\u001f\u007f]/u.test(value)) return 'control';
  if (/[^\u0000-\u00ff]/u.test(value)) return 'above-latin1';
  return undefined;
}

/**
 * Whether a string can be sent as (part of) an HTTP header value (headerValueProblem finds nothing).
 *
 * @see docs/design/config.md §7.1
 */
export function isHeaderValueSafe(value: string): boolean {
  return headerValueProblem(value) === undefined;
}

/**
 * Whether a value can serve as a credential: a string that is not blank, not an unresolved
 * `${NAME}` placeholder and can be sent in a header (isHeaderValueSafe).
 */
export function isUsableCredential(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && !PLACEHOLDER.test(value) && isHeaderValueSafe(value);
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
export function resolveCredential(env: Readonly<Record<string, string | undefined>>, variableName: string, field: 'tokenEnv' | 'apiKeyEnv' | 'credentialEnv'): string {
  const value = ownEnv(env, variableName);
  if (!isUsableCredential(value)) {
    throw new ConfigError(`Configured external context credential is unavailable. Field: provider.${field}.`, `provider.${field}`);
  }
  return value;
}
