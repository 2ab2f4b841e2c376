// The approval state machine of one session (docs/design/frontend-mcp.md §9): pending writable operations,
// answered at most once, in a later user turn, for exactly the frozen arguments, before expiry.
import { randomUUID } from 'node:crypto';
import { argumentsSummary, operationText } from './arguments-summary.ts';
import { canonicalSha256 } from '../canonical-json.ts';
import type { CallResult } from '../result/call-remote-tool.ts';
import { type ApprovalAction, emitLog, type GatewayLogger } from '../gateway-log.ts';
import type { GatewayTool } from '../gateway-tool.ts';
import { CONFIRMATION_MESSAGE, type ConfirmationRequiredOutput, externalToolUnavailable, failure, type FailureOutput, REJECTED_OUTPUT } from '../result/model-outputs.ts';
import { isPlainObject } from '../../util/plain-object.ts';
import type { SessionHost } from './session-host.ts';
import type { TurnState } from './turn-ledger.ts';

/** Most pending operations per session. */
export const MAX_PENDING_APPROVALS = 8;
/** Lifetime of a pending operation, in milliseconds. */
export const APPROVAL_TTL_MS = 120000;
// Expired entries kept to answer `expired` rather than `not_pending`; bounded, never executable.
const MAX_EXPIRED_REMEMBERED = 64;

interface PendingApproval {
  readonly id: string;
  readonly serverKey: string;
  readonly remoteName: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly argsSha256: string;
  readonly toolSha256: string;
  readonly generation: number;
  readonly requestTurn: number;
  readonly expiresAtMs: number;
}

/** What the permission tool answers. */
export type ApprovalOutput = CallResult | FailureOutput | typeof REJECTED_OUTPUT;

/** Pending approvals of one session. */
export class ApprovalBook {
  readonly #host: SessionHost;
  readonly #logger: GatewayLogger | undefined;
  readonly #pending = new Map<string, PendingApproval>();
  readonly #expired = new Map<string, PendingApproval>();

  constructor(host: SessionHost, logger: GatewayLogger | undefined) {
    this.#host = host;
    this.#logger = logger;
  }

  /**
   * Records a writable call that passed admission and asks for the user's consent.
   *
   * @param tool The writable tool.
   * @param args The call's arguments (a plain object); a deep-frozen clone is stored.
   * @param generation The server generation the tool belongs to.
   * @param turn The current turn.
   * @returns `confirmation_required`, or `external_authorization_limit` at 8 pending entries.
   * @see docs/design/frontend-mcp.md §9, "Request"
   */
  request(tool: GatewayTool, args: Readonly<Record<string, unknown>>, generation: number, turn: TurnState): ConfirmationRequiredOutput | FailureOutput {
    if (this.#pending.size >= MAX_PENDING_APPROVALS) return failure('external_authorization_limit');
    const frozen = frozenClone(args);
    const entry: PendingApproval = {
      id: `frontend_auth_${randomUUID()}`,
      serverKey: tool.serverKey,
      remoteName: tool.remoteName,
      args: frozen,
      argsSha256: canonicalSha256(frozen),
      toolSha256: tool.digest,
      generation,
      requestTurn: turn.sequence,
      expiresAtMs: this.#host.now() + APPROVAL_TTL_MS,
    };
    this.#pending.set(entry.id, entry);
    this.#log('requested', entry);
    return {
      status: 'confirmation_required',
      authorization_id: entry.id,
      operation: operationText(tool.definition.function.description),
      arguments_summary: argumentsSummary(frozen),
      expires_in_seconds: 120,
      message: CONFIRMATION_MESSAGE,
    };
  }

  /**
   * Applies the model's `respond_frontend_tool_permission` call. Every check up to the
   * deletion of an allowed entry runs synchronously, so two racing `allow` answers produce one
   * execution and one `not_pending`.
   *
   * @param rawArgs The permission tool's arguments.
   * @param turn The current turn (its sequence, user text and signal).
   * @returns The outcome; for an allowed operation, the bounded envelope of its one execution.
   * @see docs/design/frontend-mcp.md §9, "Response"
   */
  respond(rawArgs: unknown, turn: TurnState): ApprovalOutput | Promise<ApprovalOutput> {
    const answer = parseAnswer(rawArgs);
    if (answer === undefined) return failure('external_authorization_not_pending');
    const entry = this.#pending.get(answer.id);
    if (entry === undefined) {
      if (!this.#expired.delete(answer.id)) return failure('external_authorization_not_pending');
      return failure('external_authorization_expired');
    }
    if (this.#host.now() >= entry.expiresAtMs) return this.#finish(entry, 'expired', failure('external_authorization_expired'));
    if (answer.decision === 'reject') return this.#finish(entry, 'rejected', REJECTED_OUTPUT);
    // The model cannot approve its own request: approval needs a later committed user turn.
    if (turn.sequence <= entry.requestTurn) return this.#finish(entry, 'refused_same_turn', failure('external_authorization_same_turn'));
    if (turn.userText === '') {
      this.#log('refused_no_answer', entry);
      return failure('external_authorization_no_user_answer');
    }
    const current = this.#host.currentTool(entry.serverKey, entry.remoteName);
    if (current === undefined || current.tool.digest !== entry.toolSha256 || current.generation !== entry.generation) {
      return this.#finish(entry, 'invalidated', failure('external_authorization_invalidated'));
    }
    if (canonicalSha256(entry.args) !== entry.argsSha256) return this.#finish(entry, 'invalidated', failure('external_authorization_invalidated'));
    // Deleted before executing: a failure after allow is never re-run, a replay finds nothing.
    this.#finish(entry, 'allowed', undefined);
    return this.#run(entry, current.tool.name, turn.controller.signal);
  }

  /**
   * Expires overdue entries (at each new turn); they answer `expired` once afterwards.
   *
   * @param nowMs The clock, in milliseconds since the epoch.
   */
  expireOverdue(nowMs: number): void {
    for (const entry of [...this.#pending.values()]) {
      if (nowMs < entry.expiresAtMs) continue;
      this.#finish(entry, 'expired', undefined);
      this.#expired.set(entry.id, entry);
      if (this.#expired.size > MAX_EXPIRED_REMEMBERED) this.#expired.delete(this.#expired.keys().next().value as string);
    }
  }

  /** Cancels every pending entry (session close); nothing can be approved afterwards. */
  cancelAll(): void {
    for (const entry of [...this.#pending.values()]) this.#finish(entry, 'cancelled', undefined);
    this.#expired.clear();
  }

  async #run(entry: PendingApproval, name: string, signal: AbortSignal): Promise<ApprovalOutput> {
    try {
      const result = await this.#host.execute(name, entry.args, { signal });
      this.#log(result.status === 'error' ? 'failed' : 'executed', entry);
      return result;
    } catch {
      this.#log('failed', entry);
      return externalToolUnavailable(false);
    }
  }

  #finish<T>(entry: PendingApproval, action: ApprovalAction, output: T): T {
    this.#pending.delete(entry.id);
    this.#log(action, entry);
    return output;
  }

  #log(action: ApprovalAction, entry: PendingApproval): void {
    emitLog(this.#logger, {
      event: 'frontend_mcp.approval',
      action,
      authorization_id: entry.id,
      server: entry.serverKey,
      tool: entry.remoteName,
      args_sha256: entry.argsSha256,
    });
  }
}

/** The answer's schema: exactly `authorization_id` (string) and `decision` (`allow`|`reject`). */
function parseAnswer(raw: unknown): { id: string; decision: 'allow' | 'reject' } | undefined {
  if (!isPlainObject(raw)) return undefined;
  const keys = Object.keys(raw);
  if (keys.length !== 2 || !keys.includes('authorization_id') || !keys.includes('decision')) return undefined;
  const id = raw['authorization_id'];
  const decision = raw['decision'];
  if (typeof id !== 'string' || (decision !== 'allow' && decision !== 'reject')) return undefined;
  return { id, decision };
}

// A deep-frozen structured clone: the arguments an approval covers can never change afterwards.
/**
 * Clones a value with structuredClone and freezes every object and array in the clone.
 *
 * @param value A structured-cloneable value (tool arguments).
 * @returns The frozen clone.
 * @throws {DOMException} When the value cannot be cloned.
 */
export function frozenClone<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
