// `check`'s credential item (docs/design/config.md §11): the variable the configuration names is
// set, non-empty, not a literal `${NAME}` left by Qwen, and sendable as an HTTP header value.
// The administrator wrote the file, so the item names the variable; it never shows the value,
// its length or any part of it.
import { headerValueProblem, looksLikeVariableName, PASTED_CREDENTIAL_TEXT } from '../config/credential.ts';
import { ownEnv } from '../util/own-env.ts';
import { type CheckItem, item } from './check-item.ts';

/** Which provider field names the credential variable. */
export type CredentialField = 'tokenEnv' | 'apiKeyEnv' | 'credentialEnv';

/**
 * The credential variable named by a parsed configuration, read without validating the rest.
 *
 * @param parsed The parsed configuration JSON.
 * @returns The field and the variable name, or undefined when the file names none.
 */
export function credentialVariable(parsed: unknown): { readonly field: CredentialField; readonly name: string } | undefined {
  if (parsed === null || typeof parsed !== 'object' || !Object.hasOwn(parsed, 'provider')) return undefined;
  const provider: unknown = (parsed as Record<string, unknown>)['provider'];
  if (provider === null || typeof provider !== 'object') return undefined;
  for (const field of ['tokenEnv', 'apiKeyEnv', 'credentialEnv'] as const) {
    const name: unknown = Object.hasOwn(provider, field) ? (provider as Record<string, unknown>)[field] : undefined;
    if (typeof name === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,127}$/u.test(name)) return { field, name };
  }
  return undefined;
}

/**
 * The `credential` item.
 *
 * @param variable The field and variable name from {@link credentialVariable}.
 * @param env The environment `check` runs in (own properties only).
 * @returns `ok` when usable; `fail` for unset (without the name when it does not look like a
 *   variable name: {@link looksLikeVariableName}), empty or whitespace, an unresolved `${NAME}`,
 *   a control character, or a character above U+00FF (fetch cannot send it as a header).
 */
export function credentialItem(variable: { readonly field: CredentialField; readonly name: string }, env: Readonly<Record<string, string | undefined>>): CheckItem {
  const { field, name } = variable;
  const value = ownEnv(env, name);
  const where = `provider.${field} names ${name}`;
  const setIt = `Set ${name} in the environment that starts external-context (for Qwen Code, the launch profile's credentialEnv).`;
  if (typeof value !== 'string') {
    // A name that does not look like one may be the credential itself: never shown.
    if (!looksLikeVariableName(name)) {
      return item(
        'credential',
        'fail',
        `provider.${field} ${PASTED_CREDENTIAL_TEXT}`,
        `Put the name of the variable that holds the credential (such as TEAM_CONTEXT_TOKEN) in provider.${field}, set that variable, and rotate the credential if it was pasted into the file.`,
      );
    }
    return item('credential', 'fail', `${where}, which is not set.`, setIt);
  }
  if (value.trim() === '') return item('credential', 'fail', `${where}, which is empty.`, setIt);
  const placeholder = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/u.exec(value);
  if (placeholder !== null) {
    return item(
      'credential',
      'fail',
      `${where}, which holds the literal placeholder \${${placeholder[1]}} (left by Qwen Code because ${placeholder[1]} was not set).`,
      `Set ${placeholder[1]} where Qwen Code starts, or set ${name} directly.`,
    );
  }
  // The loader's own header rule (docs/design/config.md §7.1), so check and load never disagree.
  const problem = headerValueProblem(value);
  if (problem === 'control') {
    return item(
      'credential',
      'fail',
      `${where}, which contains a control character (such as a newline) that cannot go in an HTTP header.`,
      `Set ${name} to the key alone, without a trailing newline.`,
    );
  }
  if (problem === 'above-latin1') {
    return item(
      'credential',
      'fail',
      `${where}, which contains a character that cannot go in an HTTP header (above U+00FF).`,
      `Copy the key again into ${name}: it holds a character (a smart quote, a non-Latin letter) no key has.`,
    );
  }
  if (value !== value.trim()) {
    return item('credential', 'warn', `${where}, which is set but has leading or trailing spaces.`, `Remove the spaces around the key in ${name}.`);
  }
  return item('credential', 'ok', `${where}, which is set and can be sent as an HTTP header.`);
}
