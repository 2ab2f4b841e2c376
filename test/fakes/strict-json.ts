// Strict body parsing shared by the service fakes: fatal UTF-8, then JSON, then a plain object.
import type { RecordedRequest } from './fake-server.ts';

/** A parsed body, or why it is not a JSON object. */
export type StrictJsonResult = { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly reason: 'utf8' | 'json' | 'not-object'; readonly value?: unknown };

/**
 * Parses a recorded body as a JSON object, strictly.
 *
 * @returns `ok` with the object, else the first failed step; `value` holds the parsed
 *   non-object value for `not-object`.
 */
export function parseStrictJsonObject(request: RecordedRequest): StrictJsonResult {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(request.body);
  } catch {
    return { ok: false, reason: 'utf8' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'json' };
  }
  if (!isPlainObject(value)) return { ok: false, reason: 'not-object', value };
  return { ok: true, value };
}

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a string with at least one character. */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}
