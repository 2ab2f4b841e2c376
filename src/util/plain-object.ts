// The one "is this a JSON object" test of src/: configuration, tool arguments, hook stdin, provider
// answers, gateway results, probe and conformance reads all start from it. Imports nothing from src/.

/**
 * True for a non-null, non-array object whose prototype is `Object.prototype` or null: what
 * `JSON.parse`, `structuredClone` and an object literal produce for `{…}`.
 *
 * Every value this guards arrives from `JSON.parse` (files, stdin, HTTP bodies, MCP frames) or
 * from a structured clone of one, where "not null, not an array" and "plain" agree. The
 * prototype check is the stricter of the two meanings the copies it replaces had: a class
 * instance (`Date`, `Map`) is never read as a record of fields.
 *
 * @param value Any value.
 * @returns Whether `value` can be read as a record of fields.
 * @see docs/design/providers.md §2 step 1, §6.2 step 1, §6.3 step 1; docs/design/config.md §5
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
