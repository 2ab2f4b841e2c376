// Canonical JSON (object keys sorted recursively by UTF-16 code units) and its SHA-256, used
// for repeat suppression and to bind approvals to exact arguments and definitions (§8, §9).
import { createHash } from 'node:crypto';

/**
 * Serializes a JSON-compatible value with every object's keys sorted.
 *
 * @param value A JSON-compatible value (as `JSON.parse` or `structuredClone` produce).
 * @returns The canonical JSON text; `undefined` members are dropped as JSON.stringify does.
 * @throws {TypeError} For a BigInt (as JSON.stringify).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map((item) => (isOmitted(item) ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const members = Object.keys(value)
      .sort()
      .filter((key) => !isOmitted((value as Record<string, unknown>)[key]))
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Hex SHA-256 of the canonical JSON of a value (synchronous, so callers can decide and act
 * without yielding between the check and the action).
 *
 * @param value A JSON-compatible value.
 * @returns 64 lowercase hex characters.
 */
export function canonicalSha256(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}

function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}
