// Placeholder values left from the shipped examples and guides (docs/design/config.md §11): found
// by `check` (its `placeholders` item) and refused by `serve` at start, so neither contacts a
// documentation host such as context.example.com with the administrator's credential.
import type { Binding } from './binding.ts';
import { ConfigError } from './config-error.ts';
import { ownEnv } from '../util/own-env.ts';

/** Placeholder patterns the shipped examples and guides use. */
const PLACEHOLDER_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/<[^<>]{1,80}>/u, '<…>'],
  [/YOUR_/u, 'YOUR_…'],
  [/replace-me/iu, 'replace-me'],
  [/\/absolute\/path\/to\//u, '/absolute/path/to/…'],
];

/** The fields whose value is the name of the credential variable (docs/design/config.md §7). */
const VARIABLE_NAME_FIELDS: ReadonlySet<string> = new Set(['provider.tokenEnv', 'provider.apiKeyEnv', 'provider.credentialEnv']);

/** The most fields one report names. */
const MAX_REPORTED_FIELDS = 5;

/** Whether a host name is a documentation host: `example.com`, `*.example.com`, `*.example`, `example`. */
function isExampleHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/u, '');
  return name === 'example' || name.endsWith('.example') || name === 'example.com' || name.endsWith('.example.com');
}

/** The placeholder a string still holds, or undefined. */
function placeholderIn(value: string): string | undefined {
  for (const [pattern, label] of PLACEHOLDER_PATTERNS) if (pattern.test(value)) return label;
  if (/^https?:\/\//iu.test(value)) {
    try {
      if (isExampleHost(new URL(value).hostname)) return 'an example host';
    } catch {
      // Not a URL: the schema reports it.
    }
  }
  return undefined;
}

function collect(value: unknown, at: string, found: string[], env: Readonly<Record<string, string | undefined>>): void {
  if (found.length >= MAX_REPORTED_FIELDS) return;
  if (typeof value === 'string') {
    const label = placeholderIn(value);
    // A variable name such as YOUR_ORG_TOKEN that is set is the administrator's real variable.
    if (label === 'YOUR_…' && VARIABLE_NAME_FIELDS.has(at) && ownEnv(env, value) !== undefined) return;
    if (label !== undefined) found.push(`${at} (${label})`);
  } else if (Array.isArray(value)) {
    value.forEach((element, index) => collect(element, `${at}.${index}`, found, env));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, element] of Object.entries(value)) collect(element, at === '' ? key : `${at}.${key}`, found, env);
  }
}

/**
 * Every string value (the first five) that still holds `<…>`, `YOUR_…`, `replace-me`,
 * `/absolute/path/to/`, or an `http(s)` URL on `example.com`, `*.example.com` or `*.example`.
 * `YOUR_` in `provider.tokenEnv`, `apiKeyEnv` or `credentialEnv` counts only while that
 * variable is not set.
 *
 * @param value A parsed configuration (any shape).
 * @param env The environment (own properties only); values are never read beyond presence.
 * @returns `<field path> (<placeholder>)` entries, in document order; empty when none.
 * @see docs/design/config.md §11
 */
export function placeholderFields(value: unknown, env: Readonly<Record<string, string | undefined>>): string[] {
  const found: string[] = [];
  collect(value, '', found, env);
  return found;
}

/**
 * Refuses a loaded binding that still holds placeholder values: `serve` must not send the
 * credential to a documentation host, nor start a server that can only fail.
 *
 * @param binding The loaded configuration (its credential is not inspected).
 * @param env The environment the credential variable name is judged in.
 * @throws {ConfigError} `External context configuration holds placeholder values from the examples: <fields>. Replace them with the values of your deployment.`
 *   naming at most five fields.
 * @see docs/design/config.md §11
 */
export function refusePlaceholders(binding: Binding, env: Readonly<Record<string, string | undefined>>): void {
  const found = placeholderFields({ provider: binding.provider, autoRecall: binding.autoRecall }, env);
  if (found.length === 0) return;
  const first = found[0]?.split(' ')[0];
  throw new ConfigError(`External context configuration holds placeholder values from the examples: ${found.join(', ')}. Replace them with the values of your deployment.`, first);
}
