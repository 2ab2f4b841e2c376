// The shape of one MCP tool this server exposes: its tools/list definition and its handler.
// Handlers return a complete CallToolResult and never throw for expected failures.
import type { FailureClass } from '../providers/failure.ts';

/** A tools/list entry. */
export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: { readonly type: 'object' } & Readonly<Record<string, unknown>>;
  readonly outputSchema?: { readonly type: 'object' } & Readonly<Record<string, unknown>>;
  readonly annotations: Readonly<Record<string, boolean>>;
}

/** A tools/call result as the SDK sends it. */
export interface ToolResult {
  readonly content: readonly { readonly type: 'text'; readonly text: string }[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: true;
  readonly [key: string]: unknown;
}

/** A tool: definition plus handler. */
/**
 * What a tool reports about its provider request, for the `serve --http` log
 * (docs/design/remote.md §1.10): milliseconds spent, and the failure class with its status when
 * the request failed. Never the query or the result.
 */
export interface ToolObservation {
  readonly providerMs: number;
  readonly failure?: { readonly id: FailureClass; readonly status?: number };
}

/** Receives a tool's observation; called at most once per call, after the provider request. */
export type ToolObserver = (observation: ToolObservation) => void;

export interface Tool {
  readonly definition: ToolDefinition;
  /**
   * Runs one call.
   * @param args Raw `arguments` (`undefined` when absent).
   * @param signal Aborted when the client cancels or the transport closes.
   */
  call(args: unknown, signal: AbortSignal, observe?: ToolObserver): Promise<ToolResult>;
}

/** A text-only tool result; `isError` is set only when true. */
export function textResult(text: string, isError = false): ToolResult {
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
}
