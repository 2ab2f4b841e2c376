// The one own-property field read of src/ for parsed JSON that no schema has checked yet (Hook
// stdin, the host files `check` reads): an inherited name such as `__proto__` or `toString` is
// never found through the prototype. Imports nothing from src/.

/**
 * Reads one field of an object only when the object itself has it.
 *
 * @param record Any object, typically parsed JSON.
 * @param name The field name, case-sensitive.
 * @returns The field's value when `record` has `name` as an own property, else undefined.
 */
export function ownField(record: object, name: string): unknown {
  return Object.hasOwn(record, name) ? (record as Record<string, unknown>)[name] : undefined;
}
