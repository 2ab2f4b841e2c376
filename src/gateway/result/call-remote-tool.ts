// One `tools/call` with the tool's timeout and the caller's cancellation, turned into the
// bounded envelope (docs/design/frontend-mcp.md §6, §7). Upstream text only ever reaches the model inside
// the untrusted envelope, never an error message.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { untilAborted } from '../../util/until-aborted.ts';
import { withDeadline } from '../../util/with-deadline.ts';
import { boundError, boundSuccess, type ToolEnvelope } from './bound-result.ts';
import type { ServerConnection } from '../discovery/connect-server.ts';
import { FrontendMcpError } from '../frontend-mcp-error.ts';
import type { GatewayTool } from '../gateway-tool.ts';
import { failure, type FailureOutput } from './model-outputs.ts';
import { isPlainObject } from '../../util/plain-object.ts';
import { isStreamLoss } from '../discovery/stream-loss.ts';
import { resultText } from './untrusted-text.ts';

/** What a call returns: the envelope, or `tool_result_too_large`. */
export type CallResult = ToolEnvelope | FailureOutput;

/** Thrown when the server no longer knows the MCP session (HTTP 404); the call was not resent. */
export class SessionLostError extends FrontendMcpError {
  constructor(options: { cause?: unknown } = {}) {
    super('frontend_mcp_tool_failed', 'Frontend MCP tool call failed.', options);
  }
}

/**
 * Calls a remote tool once.
 *
 * @param connection The server's open connection.
 * @param tool The exposed tool.
 * @param args The arguments object (sent as given).
 * @param signal The caller's signal, or undefined; combined with the tool's timeoutMs.
 * @returns The bounded envelope, or `tool_result_too_large`.
 * @throws {FrontendMcpError} `frontend_mcp_tool_aborted` (`Frontend MCP tool timed out or was
 *   interrupted.`) when the timeout or the caller aborted the call (the SDK then sends
 *   `notifications/cancelled`); SessionLostError for HTTP 404; `frontend_mcp_tool_failed`
 *   for any other transport failure.
 * @see docs/design/frontend-mcp.md §6
 */
export async function callRemoteTool(connection: ServerConnection, tool: GatewayTool, args: Readonly<Record<string, unknown>>, signal: AbortSignal | undefined): Promise<CallResult> {
  const deadline = withDeadline(signal, tool.policy.timeoutMs);
  const combined = deadline.signal;
  let result: Record<string, unknown>;
  try {
    const request = { method: 'tools/call' as const, params: { name: tool.remoteName, arguments: args as Record<string, unknown> } };
    // ResultSchema (loose): the content blocks are checked by our own bounding, not the SDK parse.
    result = await untilAborted(connection.client.request(request, ResultSchema, { signal: combined, timeout: 60000 }), combined);
  } catch (error) {
    if (combined.aborted) throw new FrontendMcpError('frontend_mcp_tool_aborted', 'Frontend MCP tool timed out or was interrupted.', { cause: error });
    if (isStreamLoss(error)) throw new FrontendMcpError('frontend_mcp_tool_failed', 'Frontend MCP tool call failed.', { cause: error });
    if (error instanceof McpError && !(error.code === ErrorCode.ConnectionClosed && connection.isClosed())) {
      // A JSON-RPC error answer: the server's message is untrusted text inside the envelope.
      const text = error.message.replace(/^MCP error -?\d+: /, '');
      return boundError(text, tool.policy.readOnly, tool.policy.maxResultBytes) ?? failure('tool_result_too_large');
    }
    if (error instanceof StreamableHTTPError && error.code === 404) throw new SessionLostError({ cause: error });
    throw new FrontendMcpError('frontend_mcp_tool_failed', 'Frontend MCP tool call failed.', { cause: error });
  } finally {
    deadline.dispose();
  }
  // A result without a content array is not a CallToolResult: never reported `ok` with no text.
  if (!isPlainObject(result) || !Array.isArray(result['content'])) throw new FrontendMcpError('frontend_mcp_tool_failed', 'Frontend MCP tool call failed.');
  if (result['isError'] === true) {
    return boundError(resultText(result['content']).text, tool.policy.readOnly, tool.policy.maxResultBytes) ?? failure('tool_result_too_large');
  }
  return boundSuccess(result, tool.policy.maxResultBytes) ?? failure('tool_result_too_large');
}
