// `${VAR}` resolution for an enabled server's headers (docs/design/frontend-mcp.md §2.3). Values come from
// the environment passed in, never from the file, and never appear in any message.
import { configInvalid } from '../frontend-mcp-error.ts';
import { VARIABLE_REFERENCE } from './schema.ts';
import { ownEnv } from '../../util/own-env.ts';

/** Longest resolved value, in UTF-16 code units. */
export const MAX_VARIABLE_VALUE_LENGTH = 8192;
// A resolved secret must not smuggle a header break or any other control character.
const CONTROL_CHAR = /[\x00-\x1f\x7f]/;

/**
 * Replaces every `${VAR}` header value by the variable's value.
 *
 * @param headers Validated headers (HeadersSchema in schema.ts).
 * @param env The environment; read with own-property lookups only.
 * @returns A new object with the same names and resolved values.
 * @throws {FrontendMcpError} `frontend_mcp_config_invalid`: a variable that is absent or empty
 *   (`…missing: <VAR>`), longer than 8192 code units (`…too long: <VAR>`), or holding a control
 *   character (`Frontend MCP contains an invalid header.`).
 * @see docs/design/frontend-mcp.md §2.3
 */
export function resolveHeaders(headers: Readonly<Record<string, string>>, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const variable = VARIABLE_REFERENCE.exec(value)?.[1];
    if (variable === undefined) {
      resolved[name] = value;
      continue;
    }
    // Own-property lookup: `__proto__` or `toString` never resolve through the prototype.
    const found = ownEnv(env, variable);
    if (found === undefined || found === '') throw configInvalid(`Frontend MCP environment variable is missing: ${variable}`);
    if (found.length > MAX_VARIABLE_VALUE_LENGTH) throw configInvalid(`Frontend MCP environment variable is too long: ${variable}`);
    if (CONTROL_CHAR.test(found)) throw configInvalid('Frontend MCP contains an invalid header.');
    resolved[name] = found;
  }
  return resolved;
}
