// The model-visible description of a tool (docs/design/frontend-mcp.md §5): configured, else the remote
// one bounded, else a fallback that says truthfully whether the tool changes anything.

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
    const collapsed = remote.replace(/\s+/g, ' ').trim();
    const cut = Array.from(collapsed).slice(0, MAX_REMOTE_DESCRIPTION_CODE_POINTS).join('');
    if (cut !== '') return cut;
  }
  // Decision: the reference called every tool "read-only"; a writable tool says it is not.
  return readOnly
    ? `User-enabled read-only MCP tool ${label}.`
    : `User-enabled MCP tool ${label}; it changes an external system and requires user approval.`;
}
