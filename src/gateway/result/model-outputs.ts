// The fixed model-visible outputs of the gateway (docs/design/frontend-mcp.md §10). Texts are exact.

/** Codes of the `failed` outputs. */
export type FailureCode =
  | 'tool_loop_limit'
  | 'unsupported_tool'
  | 'tool_unavailable'
  | 'external_tool_unavailable'
  | 'external_authorization_limit'
  | 'external_authorization_not_pending'
  | 'external_authorization_expired'
  | 'external_authorization_same_turn'
  | 'external_authorization_no_user_answer'
  | 'external_authorization_invalidated'
  | 'tool_result_too_large';

/** The failure shape. */
export interface FailureOutput {
  readonly status: 'failed';
  readonly error: true;
  readonly error_code: FailureCode;
  readonly user_message: string;
  readonly retryable: boolean;
}

const FAILURES: Readonly<Record<Exclude<FailureCode, 'external_tool_unavailable'>, readonly [string, boolean]>> = {
  tool_loop_limit: ['Tool calls in this turn reached the safety limit; no further calls will run.', true],
  unsupported_tool: ['This tool is not available.', false],
  tool_unavailable: ['This capability is not enabled.', false],
  external_authorization_limit: ['Too many external operations are waiting for confirmation; resolve the existing requests first.', true],
  external_authorization_not_pending: ['No external tool request is waiting for a decision.', false],
  external_authorization_expired: ['The confirmation request expired. Nothing was run; request the operation again if the user still wants it.', false],
  external_authorization_same_turn: ["Approval must come from the user's answer in a later turn. The request was cancelled; request the operation again and ask the user.", false],
  external_authorization_no_user_answer: ["No user answer was recorded in this turn; wait for the user's answer.", false],
  external_authorization_invalidated: ['The tool changed or became unavailable after the request; nothing was run.', false],
  tool_result_too_large: ['The tool result is too large to return safely in this turn.', true],
};

/**
 * Builds a `failed` output.
 *
 * @param code The error code.
 * @returns The output with its exact text and retryability.
 * @see docs/design/frontend-mcp.md §10
 */
export function failure(code: Exclude<FailureCode, 'external_tool_unavailable'>): FailureOutput {
  const [userMessage, retryable] = FAILURES[code];
  return { status: 'failed', error: true, error_code: code, user_message: userMessage, retryable };
}

/**
 * Builds `external_tool_unavailable`, whose wording depends on whether the tool writes: a
 * writable operation may or may not have taken effect, so it is never retried automatically.
 *
 * @param readOnly Whether the tool is read-only.
 * @returns The output.
 * @see docs/design/frontend-mcp.md §10
 */
export function externalToolUnavailable(readOnly: boolean): FailureOutput {
  return {
    status: 'failed',
    error: true,
    error_code: 'external_tool_unavailable',
    user_message: readOnly ? 'The external tool is temporarily unavailable.' : 'The external operation did not complete; it may or may not have taken effect. Do not retry automatically.',
    retryable: readOnly,
  };
}

/** `duplicate`: a repeat of an operation already handled in this turn. */
export const DUPLICATE_OUTPUT = {
  status: 'duplicate',
  message: 'This operation was already handled in this turn and will not run again.',
} as const;

/** `superseded`: the call belongs to a turn that is no longer current. */
export const SUPERSEDED_OUTPUT = {
  status: 'superseded',
  message: 'The user has started a new turn; this call was not run.',
} as const;

/** `rejected`: the user declined the pending operation. */
export const REJECTED_OUTPUT = {
  status: 'rejected',
  message: 'The user rejected this external tool operation. Nothing was run; confirm this briefly and do not call another tool for it.',
} as const;

/** The fixed instruction of `confirmation_required`. */
export const CONFIRMATION_MESSAGE =
  "This operation changes an external system and needs the user's explicit consent first. Briefly describe the operation and its arguments, ask whether to allow it, and do not claim it has run. After the user answers in a new turn, call respond_frontend_tool_permission with the decision they expressed. Never read the authorization id aloud.";

/** `confirmation_required`: a writable call waiting for the user's answer. */
export interface ConfirmationRequiredOutput {
  readonly status: 'confirmation_required';
  readonly authorization_id: string;
  /** The tool description, at most 400 code points. */
  readonly operation: string;
  readonly arguments_summary: string;
  readonly expires_in_seconds: 120;
  readonly message: string;
}
