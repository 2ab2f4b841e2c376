// A remote tool's inputSchema → the model-visible `parameters` (docs/design/frontend-mcp.md §5). No $ref
// resolution and no keyword stripping: the schema is passed on as the server wrote it, bounded.
import { FrontendMcpError } from '../frontend-mcp-error.ts';
import { isPlainObject } from '../../util/plain-object.ts';

/** Largest serialized schema, in UTF-8 bytes. */
export const MAX_INPUT_SCHEMA_BYTES = 16384;
/** Deepest nesting of objects and arrays in a schema. */
export const MAX_INPUT_SCHEMA_DEPTH = 64;

/**
 * Deep-clones and checks an input schema.
 *
 * @param schema The remote tool's `inputSchema` (any value).
 * @returns A fresh object: `{ type: "object", properties: {} }` for a non-object or an array,
 *   the clone with `type: "object"` added when `type` was missing, else the clone.
 * @throws {FrontendMcpError} `frontend_mcp_tool_unavailable`: `Frontend MCP tool input schema must
 *   describe an object.` for any other `type`; `Frontend MCP tool input schema exceeds the
 *   limit.` above 16384 bytes of UTF-8 JSON or nested deeper than 64 levels.
 * @see docs/design/frontend-mcp.md §5
 */
export function normalizeInputSchema(schema: unknown): Record<string, unknown> {
  if (!isPlainObject(schema)) return { type: 'object', properties: {} };
  // Depth first, without recursion: JSON.stringify overflows the stack on a deep schema on
  // Node.js (about 5,000 levels), which used to read as a connection failure.
  if (deeperThan(schema, MAX_INPUT_SCHEMA_DEPTH)) throw overLimit();
  const text = JSON.stringify(schema);
  if (new TextEncoder().encode(text).byteLength > MAX_INPUT_SCHEMA_BYTES) throw overLimit();
  const clone = JSON.parse(text) as Record<string, unknown>;
  if (!Object.hasOwn(clone, 'type')) return { type: 'object', ...clone };
  if (clone['type'] !== 'object') {
    throw new FrontendMcpError('frontend_mcp_tool_unavailable', 'Frontend MCP tool input schema must describe an object.');
  }
  return clone;
}

function overLimit(): FrontendMcpError {
  return new FrontendMcpError('frontend_mcp_tool_unavailable', 'Frontend MCP tool input schema exceeds the limit.');
}

/** True when objects and arrays nest deeper than `max` (the root is level 1); iterative. */
function deeperThan(root: unknown, max: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof value !== 'object' || value === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(value)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}
