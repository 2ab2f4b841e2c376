// jsonError(): the one-key error bodies of remote.md §1.4.
import { describe, expect, test } from 'bun:test';
import { jsonError } from '../../../src/mcp/http/json-error.ts';

describe('jsonError()', () => {
  test('answers {"error":"<code>"} as application/json with the extra headers', async () => {
    const response = jsonError(405, 'method_not_allowed', { allow: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.text()).toBe('{"error":"method_not_allowed"}');
  });
});
