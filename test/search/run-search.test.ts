// runSearch(): the single context_search code path (validate, normalize, one provider call,
// bound and escape) against a real loopback Generic HTTP provider, and the operator line of
// providers.md §1.6.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { PROVIDER_ERROR_CLASS, ProviderError, type ProviderErrorKind } from '../../src/providers/provider-error.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import { runSearch, SEARCH_FAILED, SEARCH_LIMIT, searchOperatorLine } from '../../src/search/run-search.ts';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { CANARY_CREDENTIAL, genericBinding, testSignal } from '../support/provider-bindings.ts';
import { failureHint } from '../../src/providers/failure.ts';

const CANARY_QUERY = 'canary-query-run-search-91b2';
const PREFIX = 'external-context: context_search failed:';

describe('constants', () => {
  test('SEARCH_FAILED and SEARCH_LIMIT are the profile values', () => {
    expect(SEARCH_FAILED).toBe('External context search failed.');
    expect(SEARCH_LIMIT).toBe(5);
  });
});

describe('runSearch()', () => {
  let fake: GenericHttpFake;
  beforeAll(async () => {
    fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.reset();
    fake.setItems([]);
  });
  const provider = () => createProvider(genericBinding(fake.origin), { env: {} });

  test('normalizes the query and makes exactly one request with limit 5', async () => {
    fake.setItems([{ id: 'a', content: 'alpha' }]);
    const outcome = await runSearch(provider(), { query: '\u3000 deployment\n\tpolicy ' }, { signal: testSignal() });
    expect(outcome.status).toBe('ok');
    if (outcome.status === 'ok') {
      expect(outcome.itemCount).toBe(1);
      expect(outcome.rendered.structuredContent.untrusted_external_context.items).toEqual([{ id: 'a', content: 'alpha' }]);
    }
    expect(fake.requests.map((r) => r.text)).toEqual(['{"query":"deployment policy","limit":5}']);
  });

  test('bounds what the provider returns: invalid items dropped, at most five, T within 4000 units', async () => {
    fake.setItems([{ id: '', content: 'x' }, 'not an object', ...Array.from({ length: 9 }, (_, i) => ({ id: `${i}`, content: '<'.repeat(900) }))]);
    const outcome = await runSearch(provider(), { query: 'many' }, { signal: testSignal() });
    expect(outcome.status).toBe('ok');
    if (outcome.status === 'ok') {
      expect(outcome.rendered.text.length).toBeLessThanOrEqual(4000);
      expect(outcome.itemCount).toBe(outcome.rendered.structuredContent.untrusted_external_context.items.length);
      expect(outcome.itemCount).toBeLessThanOrEqual(5);
    }
  });

  test('returns an empty envelope for no items, with itemCount 0', async () => {
    const outcome = await runSearch(provider(), { query: 'none' }, { signal: testSignal() });
    expect(outcome.status === 'ok' && outcome.rendered.text.length).toBe(119);
    expect(outcome.status === 'ok' && outcome.itemCount).toBe(0);
  });

  test('returns invalid-input with the exact message and makes no request', async () => {
    expect(await runSearch(provider(), { query: ' ' }, { signal: testSignal() })).toEqual({ status: 'invalid-input', message: 'Search query must not be empty.' });
    expect(await runSearch(provider(), undefined, { signal: testSignal() })).toEqual({ status: 'invalid-input', message: 'Search query must be a string.' });
    expect(fake.requests.length).toBe(0);
  });

  test('returns failed with the stable text and the status line on an HTTP error, after one request', async () => {
    fake.override({ kind: 'reply', status: 500, body: CANARY_QUERY });
    const outcome = await runSearch(provider(), { query: CANARY_QUERY }, { signal: testSignal() });
    expect(outcome).toEqual({
      status: 'failed',
      message: SEARCH_FAILED,
      operatorLine: `${PREFIX} http-status 500`,
      failure: { id: 'http-status', status: 500, hint: failureHint('http-status', { status: 500 }) },
    });
    expect(fake.requests.length).toBe(1);
  });

  test('returns failed without any request when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await runSearch(provider(), { query: 'x' }, { signal: controller.signal });
    expect(outcome.status).toBe('failed');
    expect(fake.requests.length).toBe(0);
  });
});

describe('runSearch() deadline', () => {
  let fake: Awaited<ReturnType<typeof startGenericHttpFake>>;
  beforeAll(async () => {
    fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL });
  });
  afterAll(() => fake.close());

  test('timeoutMs bounds a stalled provider: failed with the timeout class, onStart called before the request', async () => {
    fake.override({ kind: 'stall-before-headers' });
    const events: string[] = [];
    const outcome = await runSearch(
      createProvider(genericBinding(fake.origin), { env: {} }),
      { query: 'x' },
      {
        signal: testSignal(),
        timeoutMs: 50,
        onStart: () => events.push(`start after ${fake.requests.length} requests`),
      },
    );
    expect(outcome.status === 'failed' && outcome.failure?.id).toBe('timeout');
    expect(events).toEqual(['start after 0 requests']);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('searchOperatorLine()', () => {
  const KINDS = Object.keys(PROVIDER_ERROR_CLASS) as ProviderErrorKind[];

  test('writes the failure class with the status for http-status and redirect (providers.md §1.6)', () => {
    expect(searchOperatorLine(new ProviderError('http-status', { status: 404 }))).toBe(`${PREFIX} http-status 404`);
    expect(searchOperatorLine(new ProviderError('redirect', { status: 302 }))).toBe(`${PREFIX} redirect 302`);
  });

  test('writes the failure class for errors without a status, never the cause', () => {
    const expected: Record<string, string> = {
      network: 'connection-reset',
      timeout: 'timeout',
      cancelled: 'cancelled',
      redirect: 'redirect',
      oversize: 'response-too-large',
      'invalid-utf8': 'invalid-utf8',
      'invalid-json': 'invalid-json',
      'invalid-response': 'invalid-envelope',
      'http-status': 'http-status',
    };
    for (const kind of KINDS) {
      const error = new ProviderError(kind, { cause: new Error(CANARY_QUERY) });
      expect(searchOperatorLine(error)).toBe(`${PREFIX} ${expected[kind]}`);
    }
    const refused = new ProviderError('network', { failureClass: 'connection-refused' });
    expect(searchOperatorLine(refused)).toBe(`${PREFIX} connection-refused`);
  });

  test('writes the stable text for any other exception, never its message', () => {
    for (const error of [new Error(CANARY_QUERY), new TypeError(CANARY_CREDENTIAL), CANARY_QUERY, undefined]) {
      expect(searchOperatorLine(error)).toBe(`${PREFIX} External context search failed.`);
    }
  });
});
