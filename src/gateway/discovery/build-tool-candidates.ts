// Matches a server's remote tool list against its enabled policies (docs/design/frontend-mcp.md §3, steps
// 1–3), with each tool's model-visible description and parameters (§5). Any failure fails the whole
// server closed; remote tools not enabled are never exposed.
import type { FrontendMcpServerConfig } from '../config/schema.ts';
import { FrontendMcpError } from '../frontend-mcp-error.ts';
import type { ToolCandidate } from '../gateway-tool.ts';
import type { RemoteTool } from './list-remote-tools.ts';
import { isPlainObject } from '../../util/plain-object.ts';
import { cutCodePoints } from '../../util/code-points.ts';
import { escapeInvisible } from '../../contract/escape.ts';

/**
 * Builds the candidates of one server, in configuration order.
 *
 * @param server The server's configuration.
 * @param remoteTools Its complete remote list.
 * @returns One candidate per enabled policy.
 * @throws {FrontendMcpError} `frontend_mcp_tool_unavailable`: `Enabled Frontend MCP tool is
 *   missing: <server>/<tool>`, `Frontend MCP tool annotations contradict readOnly: <server>/<tool>`,
 *   or a schema error of normalizeInputSchema().
 * @see docs/design/frontend-mcp.md §3, §5
 */
export function buildToolCandidates(server: FrontendMcpServerConfig, remoteTools: readonly RemoteTool[]): ToolCandidate[] {
  const byName = new Map(remoteTools.map((tool) => [tool.name, tool]));
  const candidates: ToolCandidate[] = [];
  for (const [remoteName, policy] of Object.entries(server.tools)) {
    if (!policy.enabled) continue;
    const label = `${server.key}/${remoteName}`;
    const remote = byName.get(remoteName);
    if (remote === undefined) throw unavailable(`Enabled Frontend MCP tool is missing: ${label}`);
    const annotations = isPlainObject(remote['annotations']) ? structuredClone(remote['annotations']) : undefined;
    // Decision: annotations may only tighten policy; an explicit contradiction fails closed.
    if (policy.readOnly && annotations !== undefined && (annotations['readOnlyHint'] === false || annotations['destructiveHint'] === true)) {
      throw unavailable(`Frontend MCP tool annotations contradict readOnly: ${label}`);
    }
    const candidate = {
      serverKey: server.key,
      remoteName,
      description: toolDescription(policy.description, remote['description'], label, policy.readOnly),
      parameters: normalizeInputSchema(remote['inputSchema']),
      policy: {
        mode: 'inline' as const,
        readOnly: policy.readOnly,
        approval: policy.approval,
        timeoutMs: policy.timeoutMs,
        maxResultBytes: policy.maxResultBytes,
        maxCallsPerTurn: policy.maxCallsPerTurn,
      },
    };
    candidates.push(annotations === undefined ? candidate : { ...candidate, annotations });
  }
  return candidates;
}

function unavailable(message: string): FrontendMcpError {
  return new FrontendMcpError('frontend_mcp_tool_unavailable', message);
}

// The model-visible description of a tool (docs/design/frontend-mcp.md §5): configured, else the remote
// one bounded, else a fallback that says truthfully whether the tool changes anything.
/** C0 controls other than whitespace (JSON would show them as escapes; here they carry nothing). */
const REMOVED_CONTROLS = /[\u0000-\u0008\u000e-\u001f]/g;

/** Longest remote description kept, in Unicode code points. */
export const MAX_REMOTE_DESCRIPTION_CODE_POINTS = 1200;

/**
 * Chooses a tool's description.
 *
 * @param configured The policy's trimmed description, if any.
 * @param remote The remote tool's `description` (any value).
 * @param label `<server>/<tool>` for the fallback text.
 * @param readOnly Whether the policy declares the tool read-only.
 * @returns The description; never empty.
 * @see docs/design/frontend-mcp.md §5
 */
export function toolDescription(configured: string | undefined, remote: unknown, label: string, readOnly: boolean): string {
  if (configured !== undefined) return configured;
  if (typeof remote === 'string') {
    // C0 controls (NUL included) are removed; every other invisible, reordering or
    // line-breaking code point (DEL, C1, bidi controls, tag characters, zero-width and other
    // default-ignorable ones, …) becomes a visible `\uXXXX` by the rule of model-visible text
    // (docs/design/profile-v1.md §5.2), as in gateway results (§7): none can hide or reorder what it says.
    const collapsed = escapeInvisible(remote.replace(REMOVED_CONTROLS, '').replace(/\s+/g, ' ').trim());
    const cut = cutCodePoints(collapsed, MAX_REMOTE_DESCRIPTION_CODE_POINTS);
    if (cut !== '') return cut;
  }
  // Decision: the reference called every tool "read-only"; a writable tool says it is not.
  return readOnly ? `User-enabled read-only MCP tool ${label}.` : `User-enabled MCP tool ${label}; it changes an external system and requires user approval.`;
}

// A remote tool's inputSchema → the model-visible `parameters` (docs/design/frontend-mcp.md §5). No $ref
// resolution and no keyword stripping: the schema is passed on as the server wrote it, bounded.
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
  if (deeperThan(schema, MAX_INPUT_SCHEMA_DEPTH)) throw schemaOverLimit();
  const raw = JSON.stringify(schema);
  // Property names, descriptions, titles, enum values, …: every string reaches the model, so each
  // follows the rule of model-visible text as the description does. The bound counts the result.
  const clone = escapeStrings(JSON.parse(raw)) as Record<string, unknown>;
  const text = JSON.stringify(clone);
  if (new TextEncoder().encode(text).byteLength > MAX_INPUT_SCHEMA_BYTES) throw schemaOverLimit();
  if (!Object.hasOwn(clone, 'type')) return { type: 'object', ...clone };
  if (clone['type'] !== 'object') {
    throw new FrontendMcpError('frontend_mcp_tool_unavailable', 'Frontend MCP tool input schema must describe an object.');
  }
  return clone;
}

function schemaOverLimit(): FrontendMcpError {
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

// Every key and string value through escapeInvisible; the depth is already bounded (64 levels).
function escapeStrings(value: unknown): unknown {
  if (typeof value === 'string') return escapeInvisible(value);
  if (Array.isArray(value)) return value.map(escapeStrings);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [escapeInvisible(key), escapeStrings(child)]));
}
