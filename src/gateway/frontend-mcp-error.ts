// FrontendMcpError: every error the gateway library throws, with the stable code of
// docs/design/frontend-mcp.md §1.1. The message is our own text; upstream text never becomes a message.

/** The stable error codes of the gateway library (docs/design/frontend-mcp.md §1.1). */
export type FrontendMcpErrorCode = 'frontend_mcp_config_unavailable' | 'frontend_mcp_config_invalid' | 'frontend_mcp_tool_unavailable' | 'frontend_mcp_tool_aborted' | 'frontend_mcp_tool_failed';

/** An error of the gateway library; `code` says which kind, the message is a spec string. */
export class FrontendMcpError extends Error {
  override readonly name = 'FrontendMcpError';
  /** The stable code (docs/design/frontend-mcp.md §1.1). */
  readonly code: FrontendMcpErrorCode;

  constructor(code: FrontendMcpErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
  }
}

/** Shorthand for a `frontend_mcp_config_invalid` error with an exact spec message. */
export function configInvalid(message: string): FrontendMcpError {
  return new FrontendMcpError('frontend_mcp_config_invalid', message);
}
