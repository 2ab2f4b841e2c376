// The context_remember tool (docs/design/write.md): identity and annotations (§1), the content contract
// (§2), exactly one writer call per tools/call (§3), the exact result texts (§4) and one
// operator line per failed, unknown or thrown write (docs/design/providers.md §1.6).
import type { Writable } from 'node:stream';
import { REMEMBER_INPUT_SCHEMA } from '../contract/contract-files.ts';
import { stringifyEscaped } from '../contract/escape.ts';
import { isPlainObject } from '../util/plain-object.ts';
import { checkRememberContent, REMEMBER_CONTENT_MESSAGES } from '../contract/remember-content.ts';
import { CAUSE_NOT_RECOGNIZED, CAUSE_PROVIDER_FAILED } from '../providers/classify-write.ts';
import { isFailureClass } from '../providers/failure.ts';
import type { RememberResult, WriteProvider } from '../providers/types.ts';
import { textResult, type Tool, type ToolDefinition, type ToolResult } from './tool.ts';

/** The context_remember tools/list entry, exactly as docs/design/write.md §1 gives it. */
export const CONTEXT_REMEMBER_DEFINITION: ToolDefinition = {
  name: 'context_remember',
  title: 'Remember external context',
  description:
    'Store the exact supplied text in the administrator-bound Mem0 repository memory. This non-idempotent operation may create a duplicate; use it only after the user approves the exact content.',
  inputSchema: REMEMBER_INPUT_SCHEMA,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

/** Model-visible texts of docs/design/write.md §4 that do not depend on the writer's answer. */
export const REMEMBER_RESULT_TEXTS = {
  failed: '{"status":"failed","message":"The provider rejected the memory. Do not retry without changing the content or configuration."}',
  unknown: '{"status":"unknown","message":"The provider may have accepted the memory. Do not retry automatically."}',
  thrown: 'External context memory write failed.',
} as const;

const OPERATOR_PREFIX = 'external-context: context_remember';

// The causes a writer may report (docs/design/providers.md §1.6): a failure label or
// `response-not-recognized` or `provider-reported-failed`. Anything else is replaced, so no upstream text can reach stderr
// even if a writer breaks its contract.
function isKnownCause(cause: string): boolean {
  if (cause === CAUSE_NOT_RECOGNIZED || cause === CAUSE_PROVIDER_FAILED) return true;
  const match = /^([a-z0-9-]+)(?: (\d{1,3}))?$/u.exec(cause);
  if (match === null || !isFailureClass(match[1])) return false;
  return match[2] === undefined || match[1] === 'http-status' || match[1] === 'redirect';
}

/**
 * The operator stderr line for a classified `failed`/`unknown` write.
 *
 * @param status The write outcome.
 * @param cause The writer's cause: a failure label (`timeout`, `http-status 500`, …) or
 *   `response-not-recognized` or `provider-reported-failed`; any other value is logged as the generic write-failure text.
 * @returns One line without the trailing newline.
 * @see docs/design/providers.md §1.6
 */
export function rememberOperatorLine(status: 'failed' | 'unknown', cause: string): string {
  const safeCause = isKnownCause(cause) ? cause : REMEMBER_RESULT_TEXTS.thrown;
  return `${OPERATOR_PREFIX} ${status}: ${safeCause}`;
}

/**
 * Maps a writer outcome to the exact tool result of docs/design/write.md §4.
 *
 * @returns `stored`/`accepted` as their JSON text (not an error, `<`/`>` escaped);
 *   `failed`/`unknown` as their fixed JSON text with `isError: true`.
 * @see docs/design/write.md §4
 */
export function rememberResultOf(result: RememberResult): ToolResult {
  switch (result.status) {
    case 'stored':
      return textResult(result.providerOperationId === undefined ? '{"status":"stored"}' : stringifyEscaped({ status: 'stored', providerOperationId: result.providerOperationId }));
    case 'accepted':
      return textResult(stringifyEscaped({ status: 'accepted', providerOperationId: result.providerOperationId }));
    case 'failed':
      return textResult(REMEMBER_RESULT_TEXTS.failed, true);
    case 'unknown':
      return textResult(REMEMBER_RESULT_TEXTS.unknown, true);
  }
}

/**
 * Builds the context_remember tool.
 *
 * @param remember The bound writer (exactly one HTTP request per call, never retried).
 * @param timeoutMs Write timeout in ms (`timeoutMs`, default 5000), combined with the
 *   client's cancellation; either abort makes the writer answer `unknown`.
 * @param stderr Where the operator line of a failed, unknown or thrown write goes.
 * @see docs/design/write.md §3, §5
 */
export function createContextRememberTool(remember: WriteProvider['remember'], timeoutMs: number, stderr: Writable): Tool {
  return {
    definition: CONTEXT_REMEMBER_DEFINITION,
    async call(args, signal) {
      // Only `content` is read: every other property is stripped (docs/design/write.md §2.1). An absent
      // `arguments` counts as `{}`; an own-property lookup keeps prototypes out of it.
      const input: unknown = args === undefined ? {} : args;
      if (!isPlainObject(input)) return textResult(REMEMBER_CONTENT_MESSAGES.notString, true);
      const raw = Object.prototype.hasOwnProperty.call(input, 'content') ? input['content'] : undefined;
      const checked = checkRememberContent(raw);
      if (!checked.ok) return textResult(checked.message, true);
      let result: RememberResult;
      try {
        // The writer starts the timeout once the fetch is warmed (docs/design/providers.md §1.4).
        result = await remember({ content: checked.content, signal, timeoutMs });
      } catch {
        // The error's own message, stack and cause never reach any output (docs/design/style.md, "Errors").
        stderr.write(`${OPERATOR_PREFIX} failed: ${REMEMBER_RESULT_TEXTS.thrown}\n`);
        return textResult(REMEMBER_RESULT_TEXTS.thrown, true);
      }
      if (result.status === 'failed' || result.status === 'unknown') {
        stderr.write(`${rememberOperatorLine(result.status, result.cause)}\n`);
      }
      return rememberResultOf(result);
    },
  };
}
