// Write classification (providers.md §6): transport outcomes, the §6.2 mapping table, the
// §6.3 results-id rules and the valid-id rule.
import { describe, expect, test } from 'bun:test';
import { PRESETS } from '../../src/config/presets.ts';
import { CAUSE_NOT_RECOGNIZED, CAUSE_PROVIDER_FAILED, classifyWriteError, classifyWriteResponse, isValidProviderId } from '../../src/providers/classify-write.ts';
import { ProviderError, type ProviderErrorKind } from '../../src/providers/provider-error.ts';

const CONTENT = 'Use pnpm.';
const PLATFORM = PRESETS['mem0-platform-v3'];
const SERVER = PRESETS['mem0-server-rest-2026-08'];
const POLARDB = PRESETS['polardb-mysql-2026-08'];
const UNKNOWN = { status: 'unknown', cause: CAUSE_NOT_RECOGNIZED } as const;

describe('isValidProviderId()', () => {
  test('256 code points are accepted, 257 rejected (astral characters count once)', () => {
    expect(isValidProviderId('a'.repeat(256))).toBe(true);
    expect(isValidProviderId('a'.repeat(257))).toBe(false);
    expect(isValidProviderId('😀'.repeat(256))).toBe(true);
    expect(isValidProviderId('😀'.repeat(257))).toBe(false);
  });

  test.each([
    ['empty', ''],
    ['whitespace only', ' \t '],
    ['a control character', 'event\u0001id'],
    ['a newline', 'event\nid'],
    ['DEL', 'event\u007fid'],
    ['a number', 7],
    ['null', null],
  ])('%s is not a valid id', (_name, value) => {
    expect(isValidProviderId(value)).toBe(false);
  });

  test('surrounding spaces and non-ASCII are allowed', () => {
    expect(isValidProviderId(' mem-1 ')).toBe(true);
    expect(isValidProviderId('mémoire-1')).toBe(true);
  });
});

describe('classifyWriteError() (providers.md §6.1)', () => {
  test.each([400, 401, 403, 404, 405, 413, 415, 422])('HTTP %i is failed', (status) => {
    expect(classifyWriteError(new ProviderError('http-status', { status }))).toEqual({ status: 'failed', cause: `http-status ${status}` });
  });

  test.each([408, 409, 429, 500, 502, 503])('HTTP %i is unknown', (status) => {
    expect(classifyWriteError(new ProviderError('http-status', { status }))).toEqual({ status: 'unknown', cause: `http-status ${status}` });
  });

  test('a redirect is unknown with its status', () => {
    expect(classifyWriteError(new ProviderError('redirect', { status: 302 }))).toEqual({ status: 'unknown', cause: 'redirect 302' });
  });

  test.each<[ProviderErrorKind, string]>([
    ['timeout', 'timeout'],
    ['cancelled', 'cancelled'],
    ['network', 'connection-reset'],
    ['oversize', 'response-too-large'],
    ['invalid-utf8', 'invalid-utf8'],
    ['invalid-json', 'invalid-json'],
  ])('%s is unknown with its failure class', (kind, cause) => {
    expect(classifyWriteError(new ProviderError(kind))).toEqual({ status: 'unknown', cause });
  });
});

describe('classifyWriteResponse() async-status (providers.md §6.2 mapping table)', () => {
  const classify = (value: unknown): unknown => classifyWriteResponse(value, PLATFORM, CONTENT);

  test('{"status":"SUCCEEDED"} → stored without an id', () => {
    expect(classify({ status: 'SUCCEEDED' })).toEqual({ status: 'stored' });
  });

  test('SUCCEEDED + valid event_id → stored with the id', () => {
    expect(classify({ status: 'SUCCEEDED', event_id: 'evt-1', results: [{ id: 'm', data: { memory: CONTENT }, event: 'ADD' }] })).toEqual({
      status: 'stored',
      providerOperationId: 'evt-1',
    });
  });

  test('PENDING + "event-1" → accepted', () => {
    expect(classify({ status: 'PENDING', event_id: 'event-1' })).toEqual({ status: 'accepted', providerOperationId: 'event-1' });
  });

  test.each([
    ['PENDING without id', { status: 'PENDING' }],
    ['PENDING with a blank id', { status: 'PENDING', event_id: '   ' }],
    ['SUCCEEDED with a control character in event_id', { status: 'SUCCEEDED', event_id: 'evt\u0007' }],
    ['SUCCEEDED with event_id null', { status: 'SUCCEEDED', event_id: null }],
    ['UNKNOWN', { status: 'UNKNOWN' }],
    ['{}', {}],
    ['[]', []],
    ['a string', 'SUCCEEDED'],
    ['SUCCEEDED with results: []', { status: 'SUCCEEDED', event_id: 'evt-1', results: [] }],
    ['SUCCEEDED with non-array results', { status: 'SUCCEEDED', results: {} }],
    ['SUCCEEDED with a rewritten data.memory', { status: 'SUCCEEDED', results: [{ id: 'm', data: { memory: 'User prefers pnpm' }, event: 'ADD' }] }],
    ['SUCCEEDED with a rewritten memory', { status: 'SUCCEEDED', results: [{ id: 'm', memory: 'Use npm.' }] }],
    ['SUCCEEDED with a DELETE event', { status: 'SUCCEEDED', results: [{ id: 'm', data: { memory: CONTENT }, event: 'DELETE' }] }],
  ])('%s → unknown', (_name, value) => {
    expect(classify(value)).toEqual(UNKNOWN);
  });

  test('FAILED → failed, logged as a recognised rejection, not as an unrecognised response', () => {
    expect(classify({ status: 'FAILED', event_id: 'evt-1' })).toEqual({ status: 'failed', cause: CAUSE_PROVIDER_FAILED });
  });

  test('an echoed memory and non-object results elements keep stored', () => {
    expect(classify({ status: 'SUCCEEDED', results: ['x', { id: 'm', data: { memory: CONTENT } }, { id: 'n', memory: CONTENT }] })).toEqual({
      status: 'stored',
    });
  });
});

describe('classifyWriteResponse() results-id (providers.md §6.3)', () => {
  const encodedEcho = JSON.stringify([{ role: 'user', content: CONTENT }]);

  test('the first valid id is stored', () => {
    const value = { results: [{ id: '' }, { id: 'mem-1', memory: CONTENT, event: 'ADD' }, { id: 'mem-2' }] };
    expect(classifyWriteResponse(value, SERVER, CONTENT)).toEqual({ status: 'stored', providerOperationId: 'mem-1' });
  });

  test('an element with no string memory is judged by its id alone', () => {
    expect(classifyWriteResponse({ results: [{ id: 'mem-1' }] }, POLARDB, CONTENT)).toEqual({ status: 'stored', providerOperationId: 'mem-1' });
  });

  test('PolarDB accepts the encoded echo; the stock server does not', () => {
    const value = { results: [{ id: 'mem-1', memory: encodedEcho }] };
    expect(classifyWriteResponse(value, POLARDB, CONTENT)).toEqual({ status: 'stored', providerOperationId: 'mem-1' });
    expect(classifyWriteResponse(value, SERVER, CONTENT)).toEqual(UNKNOWN);
  });

  test('id of 256 code points is stored, 257 is unknown', () => {
    const id256 = 'i'.repeat(256);
    expect(classifyWriteResponse({ results: [{ id: id256, memory: CONTENT }] }, SERVER, CONTENT)).toEqual({
      status: 'stored',
      providerOperationId: id256,
    });
    expect(classifyWriteResponse({ results: [{ id: 'i'.repeat(257), memory: CONTENT }] }, SERVER, CONTENT)).toEqual(UNKNOWN);
  });

  test.each([
    ['a root array', [{ id: 'mem-1', memory: CONTENT }]],
    ['a data wrapper', { data: { results: [{ id: 'mem-1' }] } }],
    ['non-array results', { results: { id: 'mem-1' } }],
    ['no results', { event_id: 'evt-1', status: 'SUCCEEDED' }],
    ['a bare event_id in results', { results: [{ event_id: 'evt-1' }] }],
    ['empty results', { results: [] }],
    ['a rewritten memory', { results: [{ id: 'mem-1', memory: 'User prefers pnpm' }] }],
    [
      'a rewritten memory after a valid element',
      {
        results: [
          { id: 'mem-1', memory: CONTENT },
          { id: 'mem-2', memory: 'other' },
        ],
      },
    ],
    [
      'a DELETE event',
      {
        results: [
          { id: 'mem-1', memory: CONTENT },
          { id: 'mem-0', event: 'DELETE' },
        ],
      },
    ],
    ['a metadata DELETE event', { results: [{ id: 'mem-1', metadata: { event: 'DELETE' } }] }],
    ['only invalid ids', { results: [{ id: 5 }, { id: ' ' }, 'mem-1'] }],
    ['null', null],
  ])('%s → unknown', (_name, value) => {
    expect(classifyWriteResponse(value, SERVER, CONTENT)).toEqual(UNKNOWN);
    expect(classifyWriteResponse(value, POLARDB, CONTENT)).toEqual(UNKNOWN);
  });
});
