// The model-visible description of a tool (docs/design/frontend-mcp.md §5): configured, else the remote
// one bounded, else a fallback that says truthfully whether the tool changes anything.

/** C0 controls other than whitespace, DEL, and the bidirectional embeddings, overrides and isolates. */
const UNSAFE_CHARACTERS = /[\u0000-\u0008\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;

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
    // Controls (NUL included) and bidirectional overrides never reach the model: they can
    // hide or reorder what a description says.
    const collapsed = remote.replace(UNSAFE_CHARACTERS, '').replace(/\s+/g, ' ').trim();
    const cut = Array.from(collapsed).slice(0, MAX_REMOTE_DESCRIPTION_CODE_POINTS).join('');
    if (cut !== '') return cut;
  }
  // Decision: the reference called every tool "read-only"; a writable tool says it is not.
  return readOnly
    ? `User-enabled read-only MCP tool ${label}.`
    : `User-enabled MCP tool ${label}; it changes an external system and requires user approval.`;
}
