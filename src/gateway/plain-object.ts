// The one "is this a JSON object" test used by configuration, arguments and results.

/**
 * True for a non-null, non-array object whose prototype is `Object.prototype` or null, which
 * is what `JSON.parse` and `structuredClone` produce for objects.
 *
 * @param value Any value.
 * @returns Whether `value` is a plain object.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
