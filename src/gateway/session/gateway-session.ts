// GatewaySession: one user connection's turns, call-id memory and pending approvals
// (docs/design/frontend-mcp.md §8). Everything here disappears with the session, so a reconnect starts
// with nothing pending.
import { ApprovalBook, type ApprovalOutput } from './approval-book.ts';
import { canonicalJson } from '../canonical-json.ts';
import type { GatewayLogger } from '../gateway-log.ts';
import { type ConfirmationRequiredOutput, DUPLICATE_OUTPUT, externalToolUnavailable, failure, type FailureOutput, SUPERSEDED_OUTPUT } from '../result/model-outputs.ts';
import { isPlainObject } from '../../util/plain-object.ts';
import { RESPOND_TOOL_NAME } from './respond-tool.ts';
import type { SessionHost } from './session-host.ts';
import { TurnLedger, type TurnState } from './turn-ledger.ts';

/** Any output a tool call can produce for the model. */
export type SessionOutput = ApprovalOutput | ConfirmationRequiredOutput | FailureOutput | typeof DUPLICATE_OUTPUT | typeof SUPERSEDED_OUTPUT;

/** The result of handleToolCall: the output, and whether the host should ask for a response. */
export interface ToolCallOutcome {
  /** Null when the call id was seen before (nothing to send). */
  readonly output: SessionOutput | null;
  readonly createResponse: boolean;
}

/** One model tool call as the host received it. */
export interface ToolCallRequest {
  readonly callId: string;
  readonly name: string;
  readonly args: unknown;
  readonly turnId: string;
  /** The caller's own cancellation, combined with the turn signal. */
  readonly signal?: AbortSignal;
}

/** The gateway state of one user connection. */
export class GatewaySession {
  readonly #host: SessionHost;
  readonly #turns = new TurnLedger();
  readonly #callIds = new CallIdMemory();
  readonly #approvals: ApprovalBook;
  readonly #onClose: () => void;
  #closed = false;

  /** Created by FrontendMcpGateway.createSession(). */
  constructor(host: SessionHost, logger: GatewayLogger | undefined, onClose: () => void) {
    this.#host = host;
    this.#approvals = new ApprovalBook(host, logger);
    this.#onClose = onClose;
  }

  /**
   * Commits a user turn: aborts the previous turn's in-flight calls, advances the sequence,
   * records the trimmed user text and expires overdue approvals.
   *
   * @param turn `turnId` (required) and the committed `userText`.
   * @throws {TypeError} When `turnId` is not a non-empty string.
   * @see docs/design/frontend-mcp.md §8
   */
  beginTurn(turn: { readonly turnId: string; readonly userText?: string }): void {
    if (typeof turn.turnId !== 'string' || turn.turnId === '') throw new TypeError('beginTurn() needs a turnId string.');
    if (this.#closed) return;
    this.#turns.begin(turn.turnId, typeof turn.userText === 'string' ? turn.userText : '');
    this.#approvals.expireOverdue(this.#host.now());
  }

  /** Aborts the current turn's in-flight calls (barge-in without a new transcript). */
  abortTurn(): void {
    this.#turns.abortCurrent();
  }

  /**
   * Handles one model tool call (docs/design/frontend-mcp.md §8, checks in order).
   *
   * @param request The call.
   * @returns The output and whether to create a model response.
   * @throws {TypeError} When `callId` or `turnId` is not a string.
   */
  async handleToolCall(request: ToolCallRequest): Promise<ToolCallOutcome> {
    if (typeof request.callId !== 'string' || typeof request.turnId !== 'string') {
      throw new TypeError('handleToolCall() needs callId and turnId strings.');
    }
    // 1. A replayed call id is ignored.
    if (this.#callIds.seen(request.callId)) return { output: null, createResponse: false };
    // 2. Only the current turn's calls run.
    const turn = this.#turns.current;
    if (this.#closed || turn === undefined || turn.id !== request.turnId) return { output: SUPERSEDED_OUTPUT, createResponse: false };
    // 3. The user's answer to a pending operation (not counted by the limits).
    if (request.name === RESPOND_TOOL_NAME) return { output: await this.#approvals.respond(request.args, turn), createResponse: true };
    // 4. Only gateway tools.
    const tool = this.#host.findTool(request.name);
    if (tool === undefined) return { output: failure('unsupported_tool'), createResponse: true };
    // 5. Loop admission.
    const admission = this.#turns.admit(turn, tool.name, canonicalJson(request.args), tool.policy.maxCallsPerTurn, this.#host.now());
    if (admission === 'duplicate') return { output: DUPLICATE_OUTPUT, createResponse: false };
    if (admission === 'limit') return { output: failure('tool_loop_limit'), createResponse: true };
    // Decision: non-object arguments never run and never become a pending operation.
    if (!isPlainObject(request.args)) return { output: failure('tool_unavailable'), createResponse: true };
    // 6. Dispatch by policy; anything but the two safe combinations never runs.
    const { readOnly, approval } = tool.policy;
    if (readOnly && approval === 'none') return { output: await this.#runReadOnly(tool.name, request.args, turn, request.signal), createResponse: true };
    if (!readOnly && approval === 'required') {
      const current = this.#host.currentTool(tool.serverKey, tool.remoteName);
      if (current === undefined) return { output: failure('tool_unavailable'), createResponse: true };
      return { output: this.#approvals.request(current.tool, request.args, current.generation, turn), createResponse: true };
    }
    return { output: failure('tool_unavailable'), createResponse: true };
  }

  /** Ends the session: aborts in-flight calls and cancels every pending approval. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#turns.closeAll();
    this.#approvals.cancelAll();
    this.#onClose();
  }

  async #runReadOnly(name: string, args: Record<string, unknown>, turn: TurnState, signal: AbortSignal | undefined): Promise<SessionOutput> {
    const turnSignal = turn.controller.signal;
    try {
      return await this.#host.execute(name, args, { signal: signal === undefined ? turnSignal : AbortSignal.any([turnSignal, signal]) });
    } catch {
      // Aborted, failed or unavailable: the model learns only that the tool is unavailable.
      return externalToolUnavailable(true);
    }
  }
}

// Remembers the most recent call ids of a session so a replayed call is ignored (§8 step 1).
/** How many call ids a session remembers. */
export const REMEMBERED_CALL_IDS = 500;

/** A bounded first-in-first-out set of call ids. */
export class CallIdMemory {
  readonly #ids = new Set<string>();

  /**
   * Records a call id.
   *
   * @param callId The host's id of the model's tool call.
   * @returns True when the id was already among the last 500 recorded.
   */
  seen(callId: string): boolean {
    if (this.#ids.has(callId)) return true;
    this.#ids.add(callId);
    // Sets iterate in insertion order, so the first entry is the oldest.
    if (this.#ids.size > REMEMBERED_CALL_IDS) this.#ids.delete(this.#ids.values().next().value as string);
    return false;
  }
}
