// The failure class of an SDK transport request that never got an answer (docs/design/frontend-mcp.md §11,
// docs/design/providers.md §1.6). The rejection passes through the MCP SDK unchanged; the class
// is remembered beside it, so the discovery that fails later can log it.
import type { FailureClass } from './failure.ts';

const CLASSIFIED = new WeakMap<object, FailureClass>();

/**
 * Remembers the failure class of a rejected fetch.
 *
 * @param error The rejection, passed on unchanged by the caller.
 * @param failure Its class.
 */
export function noteTransportFailure(error: unknown, failure: FailureClass): void {
  if (typeof error === 'object' && error !== null) CLASSIFIED.set(error, failure);
}

/**
 * The failure class remembered for an error or any of its causes (up to five levels).
 *
 * @param error An error from discovery or a tool call.
 * @returns The class, or undefined when no rejected request is behind it.
 */
export function transportFailureOf(error: unknown): FailureClass | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const known = CLASSIFIED.get(current);
    if (known !== undefined) return known;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
