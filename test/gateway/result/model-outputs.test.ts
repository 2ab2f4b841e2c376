import { expect, test } from 'bun:test';
import { DUPLICATE_OUTPUT, externalToolUnavailable, failure, REJECTED_OUTPUT, SUPERSEDED_OUTPUT } from '../../../src/gateway/result/model-outputs.ts';

test('failure() builds the failure shape with the exact texts and retryability', () => {
  expect(failure('tool_loop_limit')).toEqual({
    status: 'failed',
    error: true,
    error_code: 'tool_loop_limit',
    user_message: 'Tool calls in this turn reached the safety limit; no further calls will run.',
    retryable: true,
  });
  expect(failure('unsupported_tool')).toMatchObject({ user_message: 'This tool is not available.', retryable: false });
  expect(failure('tool_unavailable')).toMatchObject({ user_message: 'This capability is not enabled.', retryable: false });
  expect(failure('external_authorization_limit').retryable).toBe(true);
  expect(failure('tool_result_too_large')).toMatchObject({ user_message: 'The tool result is too large to return safely in this turn.', retryable: true });
});

test('externalToolUnavailable() warns that a writable operation may have taken effect', () => {
  expect(externalToolUnavailable(true)).toMatchObject({ user_message: 'The external tool is temporarily unavailable.', retryable: true });
  expect(externalToolUnavailable(false)).toMatchObject({
    user_message: 'The external operation did not complete; it may or may not have taken effect. Do not retry automatically.',
    retryable: false,
  });
});

test('the status outputs carry their exact messages', () => {
  expect(DUPLICATE_OUTPUT.message).toBe('This operation was already handled in this turn and will not run again.');
  expect(SUPERSEDED_OUTPUT.message).toBe('The user has started a new turn; this call was not run.');
  expect(REJECTED_OUTPUT.status).toBe('rejected');
});
