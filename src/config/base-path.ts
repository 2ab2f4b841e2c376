// The nine `endpoint.basePath` rules of the `mem0` type and the one joining rule
// (docs/design/config.md §9). Runs at adapter construction and in the probe.
import { ConfigError } from './config-error.ts';

/** The rules in spec order: reason text and the test that fails it (docs/design/config.md §9). */
const BASE_PATH_RULES: readonly (readonly [reason: string, fails: (value: string) => boolean])[] = [
  ['it must start with "/"', (value) => !value.startsWith('/')],
  ['it must not contain an empty segment ("//")', (value) => value.includes('//')],
  ['it must not contain a query ("?")', (value) => value.includes('?')],
  ['it must not contain a fragment ("#")', (value) => value.includes('#')],
  ['it must not contain a backslash', (value) => value.includes('\\')],
  ['it must not contain percent-encoded material ("%")', (value) => value.includes('%')],
  ['it must not contain whitespace', (value) => /\s/u.test(value)],
  ['it must not contain control characters', (value) => /[\u0000-\u001f\u007f]/u.test(value)],
  ['it must not contain a "." or ".." segment', (value) => value.split('/').some((s) => s === '.' || s === '..')],
];

/**
 * Validates a `basePath` and returns the prefix to put before a preset path.
 *
 * `""` means no prefix. Otherwise the first failing rule of docs/design/config.md §9 throws. The
 * returned prefix has one trailing `/` removed, so `"/proxy/"` gives `/proxy` and `"/"`
 * gives `""`.
 *
 * @param value The configured `endpoint.basePath` (or the probe's `--base-path`).
 * @param fieldPath Appended as ` Field: <path>.` when given (docs/design/config.md §6 step 6b).
 * @param subject What the message calls the field: `Mem0 endpoint basePath` (default) or
 *   `Generic HTTP basePath` for `provider.basePath` of a Generic provider.
 * @returns The prefix without its trailing `/`; `""` for no prefix.
 * @throws {ConfigError} `External context <subject> is invalid: <reason>.`
 *   with the first failing rule's reason; the message never contains the value.
 * @see docs/design/config.md §9, §6 step 6b
 */
export function checkBasePath(value: string, fieldPath?: string, subject = 'Mem0 endpoint basePath'): string {
  if (value === '') return '';
  for (const [reason, fails] of BASE_PATH_RULES) {
    if (!fails(value)) continue;
    const message = `External context ${subject} is invalid: ${reason}.`;
    throw fieldPath === undefined ? new ConfigError(message) : new ConfigError(`${message} Field: ${fieldPath}.`, fieldPath);
  }
  return value.endsWith('/') ? value.slice(0, -1) : value;
}

/**
 * Joins an origin, a checked prefix and a preset path into the request URL.
 *
 * Non-ASCII characters in the prefix are percent-encoded by the URL serializer.
 *
 * @param origin A normalized origin from `applyOriginPolicy` (no trailing `/`).
 * @param prefix A prefix from `checkBasePath` (`""` or `/…` without a trailing `/`).
 * @param presetPath The preset's static path, starting with `/`.
 * @returns The serialized absolute URL, e.g. `https://m.example/proxy/v2/memories/search`.
 * @see docs/design/config.md §9 ("Joining")
 */
export function joinRequestUrl(origin: string, prefix: string, presetPath: string): string {
  return new URL(`${origin}${prefix}${presetPath}`).href;
}
