// What a GatewaySession needs from its gateway: tool lookup, the live definition and server
// generation (to invalidate approvals), execution and the clock. Kept as an interface so the
// session does not depend on the gateway class.
import type { CallResult } from '../result/call-remote-tool.ts';
import type { GatewayTool } from '../gateway-tool.ts';

/** The gateway as seen by its sessions. */
export interface SessionHost {
  /** Milliseconds since the epoch (a fake clock in tests). */
  now(): number;
  /** The exposed tool of that model-visible name, if its server is ready. */
  findTool(name: string): GatewayTool | undefined;
  /**
   * The current record of a server's tool, with the server's generation, if the server is
   * ready. The generation changes whenever the server failed or reconnected.
   */
  currentTool(serverKey: string, remoteName: string): { readonly tool: GatewayTool; readonly generation: number } | undefined;
  /** Executes a tool by name (docs/design/frontend-mcp.md §6). */
  execute(name: string, args: unknown, options: { readonly signal?: AbortSignal }): Promise<CallResult>;
}
