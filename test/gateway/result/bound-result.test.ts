import { expect, test } from 'bun:test';
import { boundError, boundSuccess, serializedBytes, UNTRUSTED_NOTICE } from '../../../src/gateway/result/bound-result.ts';

test('boundSuccess() wraps a small result with the notice, keys in spec order', () => {
  const envelope = boundSuccess(
    {
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: '', mimeType: 'image/png' },
      ],
      structuredContent: { n: 1 },
    },
    32768,
  );
  expect(envelope).toEqual({ status: 'ok', notice: UNTRUSTED_NOTICE, text: 'hello', structured_content: { n: 1 }, omitted_content_blocks: 1 });
  expect(Object.keys(envelope ?? {})).toEqual(['status', 'notice', 'text', 'structured_content', 'omitted_content_blocks']);
});

test('boundSuccess() drops structured content and cuts 4000 × 界 to fit 2048 bytes of serialized envelope', () => {
  const structured = { data: 'x'.repeat(4000) };
  const envelope = boundSuccess({ content: [{ type: 'text', text: '界'.repeat(4000) }], structuredContent: structured }, 2048);
  expect(envelope).not.toBeNull();
  expect(envelope).not.toHaveProperty('structured_content');
  expect(envelope?.text_truncated).toBe(true);
  expect(serializedBytes(envelope)).toBeLessThanOrEqual(2048);
  // Longest prefix: one more code point would not fit.
  const longer = { ...envelope, text: `${envelope?.text}界` };
  expect(serializedBytes(longer)).toBeGreaterThan(2048);
});

test('boundSuccess() measures the serialized form, so quotes and backslashes still fit', () => {
  const envelope = boundSuccess({ content: [{ type: 'text', text: '"\\'.repeat(3000) }] }, 1024);
  expect(serializedBytes(envelope)).toBeLessThanOrEqual(1024);
  expect(envelope?.text_truncated).toBe(true);
  expect(JSON.parse(JSON.stringify(envelope)).text).toBe(envelope?.text);
});

test('boundSuccess() keeps structured content within min(24576, maxResultBytes) when the envelope fits', () => {
  const structured = { data: 'y'.repeat(1500) };
  expect(boundSuccess({ content: [], structuredContent: structured }, 4096)?.structured_content).toEqual(structured);
  expect(boundSuccess({ content: [], structuredContent: { d: 'z'.repeat(25000) } }, 65536)).not.toHaveProperty('structured_content');
  expect(boundSuccess({ content: [], structuredContent: [1, 2] }, 4096)).not.toHaveProperty('structured_content');
});

test('boundSuccess() returns null when even the empty envelope cannot fit', () => {
  expect(boundSuccess({ content: [{ type: 'text', text: 'x' }] }, 100)).toBeNull();
});

test('boundError() wraps server error text as untrusted, retryable only for read-only tools', () => {
  expect(boundError('boom <b>', true, 32768)).toEqual({
    status: 'error',
    error: true,
    error_code: 'frontend_mcp_tool_failed',
    retryable: true,
    user_message: 'The external tool reported an error.',
    notice: UNTRUSTED_NOTICE,
    untrusted_error_text: 'boom <b>',
  });
  expect(boundError('', false, 32768)).not.toHaveProperty('untrusted_error_text');
  const long = boundError('e'.repeat(5000), false, 1024);
  expect(long?.retryable).toBe(false);
  expect(serializedBytes(long)).toBeLessThanOrEqual(1024);
});
