// The log events of the gateway (docs/design/frontend-mcp.md §11). Argument values, results, header values
// and environment values are never part of an event.
import type { FailureClass } from '../providers/failure.ts';

/** The transitions of the approval state machine that are logged (§9). */
export type ApprovalAction = 'requested' | 'allowed' | 'rejected' | 'expired' | 'refused_same_turn' | 'refused_no_answer' | 'invalidated' | 'executed' | 'failed' | 'cancelled';

/** One log event; the CLI prints each as a JSON line on stderr. */
export type GatewayLogEvent =
  | { readonly event: 'frontend_mcp.connected'; readonly server: string; readonly tools: number }
  | {
      readonly event: 'frontend_mcp.connection_failed';
      readonly server: string;
      readonly error: string;
      /** The failure class when a request got no answer (docs/design/providers.md §1.6). */
      readonly class?: FailureClass;
    }
  | {
      readonly event: 'frontend_mcp.tools_changed';
      readonly server: string;
      readonly outcome: 'refreshed' | 'ignored' | 'failed';
    }
  | {
      readonly event: 'frontend_mcp.approval';
      readonly action: ApprovalAction;
      readonly authorization_id: string;
      readonly server: string;
      /** The server's raw tool name. */
      readonly tool: string;
      /** Hex SHA-256 of the canonical arguments; the values themselves are never logged. */
      readonly args_sha256: string;
    };

/** Receives log events. It must not throw; a throwing logger is ignored. */
export type GatewayLogger = (event: GatewayLogEvent) => void;

/**
 * Calls a logger, swallowing its errors so logging can never change an outcome.
 *
 * @param logger The logger, or undefined for none.
 * @param event The event.
 */
export function emitLog(logger: GatewayLogger | undefined, event: GatewayLogEvent): void {
  try {
    logger?.(event);
  } catch {
    // A broken logger must not turn an allowed call into a failure or leave state half-updated.
  }
}
