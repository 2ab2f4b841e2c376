// Plain-object check shared by the contract's validators.

/** True for a non-null, non-array object (tool arguments and parsed JSON objects). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
