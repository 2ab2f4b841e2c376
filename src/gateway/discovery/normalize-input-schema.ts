// A remote tool's inputSchema → the model-visible `parameters` (docs/design/frontend-mcp.md §5). No $ref
// resolution and no keyword stripping: the schema is passed on as the server wrote it, bounded.
import { FrontendMcpError } from '../frontend-mcp-error.ts';
import { isPlainObject } from '../../util/plain-object.ts';

/** Largest serialized schema, in UTF-8 bytes. */
export const MAX_INPUT_SCHEMA_BYTES = 16384;

/**
 * Deep-clones and checks an input schema.
 *
 * @param schema The remote tool's `inputSchema` (any value).
 * @returns A fresh object: `{ type: "object", properties: {} }` for a non-object or an array,
 *   the clone with `type: "object"` added when `type` was missing, else the clone.
 * @throws {FrontendMcpError} `frontend_mcp_tool_unavailable`: `Frontend MCP tool input schema must
 *   describe an object.` for any other `type`; `Frontend MCP tool input schema exceeds the
 *   limit.` above 16384 bytes of UTF-8 JSON.
 * @see docs/design/frontend-mcp.md §5
 */
export function normalizeInputSchema(schema: unknown): Record<string, unknown> {
  if (!isPlainObject(schema)) return { type: 'object', properties: {} };
  const text = JSON.stringify(schema);
  if (new TextEncoder().encode(text).byteLength > MAX_INPUT_SCHEMA_BYTES) {
    throw new FrontendMcpError('frontend_mcp_tool_unavailable', 'Frontend MCP tool input schema exceeds the limit.');
  }
  const clone = JSON.parse(text) as Record<string, unknown>;
  if (!Object.hasOwn(clone, 'type')) return { type: 'object', ...clone };
  if (clone['type'] !== 'object') {
    throw new FrontendMcpError('frontend_mcp_tool_unavailable', 'Frontend MCP tool input schema must describe an object.');
  }
  return clone;
}
