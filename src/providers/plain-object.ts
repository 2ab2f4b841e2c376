// The "plain object" test of docs/design/providers.md §2 and §6: a JSON object, never an array or null.

/**
 * True for a non-null, non-array object, which is what `JSON.parse` returns for `{…}`.
 *
 * @param value Any parsed JSON value.
 * @returns Whether `value` can be read as a record of fields.
 * @see docs/design/providers.md §2 step 1, §6.2 step 1, §6.3 step 1
 */
export function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
