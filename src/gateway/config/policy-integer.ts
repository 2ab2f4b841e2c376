// Strict integer policy values (docs/design/frontend-mcp.md §2.3): JSON integers in a range, with a
// default when absent. Decision: strings and booleans are not coerced (the reference used Number()).
import { configInvalid } from '../frontend-mcp-error.ts';

/**
 * Reads an optional integer policy value.
 *
 * @param value The raw value from the file, or undefined when absent.
 * @param min Smallest allowed value (inclusive).
 * @param max Largest allowed value (inclusive).
 * @param fallback Value used when `value` is undefined.
 * @returns The integer.
 * @throws {FrontendMcpError} `Frontend MCP policy value must be <min>-<max>.` for a non-integer
 *   or out-of-range value.
 * @see docs/design/frontend-mcp.md §2.3
 */
export function policyInteger(value: unknown, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw configInvalid(`Frontend MCP policy value must be ${min}-${max}.`);
  }
  return value;
}
