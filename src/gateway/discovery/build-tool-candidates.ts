// Matches a server's remote tool list against its enabled policies (docs/design/frontend-mcp.md §3, steps
// 1–3). Any failure fails the whole server closed; remote tools not enabled are never exposed.
import type { FrontendMcpServerConfig } from '../config/config-types.ts';
import { FrontendMcpError } from '../frontend-mcp-error.ts';
import type { ToolCandidate } from '../gateway-tool.ts';
import type { RemoteTool } from './list-remote-tools.ts';
import { normalizeInputSchema } from './normalize-input-schema.ts';
import { isPlainObject } from '../../util/plain-object.ts';
import { toolDescription } from './tool-description.ts';

/**
 * Builds the candidates of one server, in configuration order.
 *
 * @param server The server's configuration.
 * @param remoteTools Its complete remote list.
 * @returns One candidate per enabled policy.
 * @throws {FrontendMcpError} `frontend_mcp_tool_unavailable`: `Enabled Frontend MCP tool is
 *   missing: <server>/<tool>`, `Frontend MCP tool annotations contradict readOnly: <server>/<tool>`,
 *   or a schema error of normalize-input-schema.ts.
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
