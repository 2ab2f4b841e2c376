// Response parsing fuzzing over a real loopback server (issue 11; providers.md §1.2, §2, §6):
// random bytes, deep and huge JSON, wrong types, BOMs, bad UTF-8 and odd statuses are served to
// every adapter. A search either renders a valid envelope or fails with one of our stable
// ProviderErrors; a write always returns one of the four outcomes and never throws; every run
// costs exactly one request.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { boundItems } from '../../src/contract/bound.ts';
import { renderEnvelope } from '../../src/contract/envelope.ts';
import type { PresetId, ScopeKey } from '../../src/config/presets.ts';
import { isValidProviderId } from '../../src/providers/classify-write.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import { PROVIDER_ERROR_MESSAGES, ProviderError, type ProviderErrorKind } from '../../src/providers/provider-error.ts';
import type { BoundProvider } from '../../src/providers/types.ts';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import type { FakeReply } from '../fakes/reply.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { genericBinding, mem0Binding, platformBinding } from '../support/provider-bindings.ts';
import { anyJson, anyString } from './arbitraries.ts';

/** Fuzz run counts (reported in the closing note). */
export const RESPONSE_FUZZ_RUNS = { search: 400, write: 300 } as const;

const MIB = 1_048_576;
const SCOPES: Readonly<Record<PresetId, Readonly<Partial<Record<ScopeKey, string>>>>> = {
  'mem0-platform-v3': { appId: 'repository-memory' },
  'mem0-server-rest-2026-08': { userId: 'u1', agentId: 'qwen-code' },
  'polardb-mysql-2026-08': { userId: 'u1' },
};

let fake: FakeServer;
/** The reply the fake plays next (one per run). */
let next: FakeReply = { status: 200, json: {} };
let adapters: { label: string; provider: BoundProvider }[];

beforeAll(async () => {
  fake = await startFakeServer({ handler: () => next });
  adapters = [
    { label: 'generic-http-search-v1', provider: createProvider(genericBinding(fake.origin, CANARY.credential)) },
    ...(Object.keys(SCOPES) as PresetId[]).map((preset) => ({
      label: preset,
      provider: createProvider(mem0Binding(preset, fake.origin, SCOPES[preset], { writeEnabled: true, credential: CANARY.credential })),
    })),
    {
      label: 'mem0-platform-v3 (legacy type)',
      provider: createProvider(platformBinding('repository-memory', { credential: CANARY.credential }), { platformOriginForTests: fake.origin }),
    },
  ];
});
afterAll(() => fake.close());

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A body: random bytes, any JSON, wrong-typed envelopes, deep nesting, ~1 MiB, BOMs, bad UTF-8. */
function body(): fc.Arbitrary<{ bytes: Uint8Array; chunked: boolean }> {
  const element = fc.oneof(
    anyJson(3),
    fc.record({ id: fc.oneof(anyString(12), anyJson(1)), content: fc.oneof(anyString(40), anyJson(1)), memory: fc.oneof(anyString(40), anyJson(1)) }, { requiredKeys: [] }),
  );
  const envelope = fc.record(
    {
      items: fc.oneof(fc.array(element, { maxLength: 8 }), anyJson(2)),
      results: fc.oneof(fc.array(element, { maxLength: 8 }), anyJson(2)),
      status: fc.constantFrom('SUCCEEDED', 'PENDING', 'FAILED', 'UNKNOWN', 1, null),
      event_id: fc.oneof(anyString(10), anyJson(1)),
    },
    { requiredKeys: [] },
  );
  const deep = fc.record({ depth: fc.integer({ min: 1, max: 150_000 }), open: fc.constantFrom('[', '{"a":'), wrap: fc.boolean() }).map(({ depth, open, wrap }) => {
    const close = open === '[' ? ']' : '}';
    const nested = `${open.repeat(depth)}0${close.repeat(depth)}`;
    return wrap ? `{"items":[{"id":"d","content":"deep","extra":${nested}}],"results":[{"id":"d","memory":"deep","extra":${nested}}]}` : nested;
  });
  const sized = fc.constantFrom(MIB - 1, MIB, MIB + 1, 2 * MIB).map((size) => {
    const head = '{"items":[{"id":"big","content":"x"}],"results":[{"id":"big","memory":"x"}]}';
    return head + ' '.repeat(size - head.length);
  });
  const text = fc.oneof(
    { weight: 4, arbitrary: envelope.map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: anyJson(4).map((value) => JSON.stringify(value) ?? '') },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: sized },
    { weight: 1, arbitrary: envelope.map((value) => `\uFEFF${JSON.stringify(value)}`) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'null', '[]', '{}', '{"items":null}', '{"results":{}}', '<html>oops</html>', '1e999', '"\\ud800"') },
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ bytes: text.map(encode), chunked: fc.boolean() }) },
    { weight: 2, arbitrary: fc.record({ bytes: fc.uint8Array({ maxLength: 2048 }), chunked: fc.boolean() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        bytes: envelope.map((value) => {
          const bytes = Array.from(encode(JSON.stringify(value)));
          bytes.splice(Math.floor(bytes.length / 2), 0, 0xc3, 0x28);
          return new Uint8Array(bytes);
        }),
        chunked: fc.boolean(),
      }),
    },
  );
}

const STATUS = fc.oneof(
  { weight: 8, arbitrary: fc.constant(200) },
  { weight: 2, arbitrary: fc.constantFrom(201, 202, 204, 206, 299, 300, 301, 302, 304, 307, 308, 400, 401, 404, 405, 408, 409, 413, 418, 422, 429, 500, 502, 503) },
);

function play(status: number, bytes: Uint8Array, chunked: boolean, contentType: string): void {
  next = { status, body: bytes, headers: { 'content-type': contentType, ...(chunked ? { 'transfer-encoding': 'chunked' } : {}) } };
}

const CONTENT_TYPE = fc.constantFrom('application/json', 'text/html', 'application/octet-stream', 'application/json; charset=utf-16');

describe('response parsing fuzzing (real loopback server)', () => {
  test(`search: a valid envelope or one of our stable errors, one request each (${RESPONSE_FUZZ_RUNS.search} runs)`, async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 4 }), STATUS, body(), CONTENT_TYPE, async (index, status, { bytes, chunked }, contentType) => {
        const adapter = adapters[index] as (typeof adapters)[number];
        fake.reset();
        play(status, bytes, chunked, contentType);
        let outcome: string;
        try {
          const items = await adapter.provider.search({ query: CANARY.query, limit: 5, signal: AbortSignal.timeout(20000) });
          expect(status >= 200 && status <= 299).toBe(true);
          const rendered = renderEnvelope(boundItems(items));
          expect(rendered.text.length).toBeLessThanOrEqual(4000);
          expect(JSON.parse(rendered.text)).toStrictEqual(rendered.structuredContent);
          outcome = 'ok';
        } catch (error) {
          if (!(error instanceof ProviderError)) throw new Error(`not a ProviderError: ${String(error)}`, { cause: error });
          expect(Object.values(PROVIDER_ERROR_MESSAGES)).toContain(error.message);
          expectNoCanary(error.message);
          const allowed: readonly ProviderErrorKind[] =
            status >= 300 && status <= 399 ? ['redirect'] : status < 200 || status > 299 ? ['http-status'] : ['oversize', 'invalid-utf8', 'invalid-json', 'invalid-response'];
          expect(allowed).toContain(error.kind);
          if (error.kind === 'redirect' || error.kind === 'http-status') expect(error.status).toBe(status);
          outcome = error.kind;
        }
        expect(fake.requests).toHaveLength(1);
        seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
      }),
      { numRuns: RESPONSE_FUZZ_RUNS.search },
    );
    // Not vacuous: both successes and every class of failure occurred.
    for (const kind of ['ok', 'invalid-json', 'invalid-response', 'http-status']) expect({ kind, seen: (seen.get(kind) ?? 0) > 0 }).toEqual({ kind, seen: true });
  });

  test(`write: always one of the four outcomes, never a throw, one request each (${RESPONSE_FUZZ_RUNS.write} runs)`, async () => {
    const writers = (): typeof adapters => adapters.filter((adapter) => adapter.provider.remember !== undefined);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 3 }), STATUS, body(), CONTENT_TYPE, async (index, status, { bytes, chunked }, contentType) => {
        const adapter = writers()[index] as (typeof adapters)[number];
        fake.reset();
        play(status, bytes, chunked, contentType);
        const remember = adapter.provider.remember;
        if (remember === undefined) throw new Error('no writer');
        const result = await remember({ content: CANARY.content, signal: AbortSignal.timeout(20000) });
        expect(['stored', 'accepted', 'failed', 'unknown']).toContain(result.status);
        if (result.status === 'stored' || result.status === 'accepted') {
          expect(status >= 200 && status <= 299).toBe(true);
          if (result.providerOperationId !== undefined) expect(isValidProviderId(result.providerOperationId)).toBe(true);
        }
        if (result.status === 'failed' || result.status === 'unknown') {
          expect(result.cause).toMatch(
            /^((http-status|redirect) \d{1,3}|response-not-recognized|provider-reported-failed|connection-reset|connection-refused|timeout|cancelled|response-too-large|invalid-utf8|invalid-json|invalid-envelope)$/,
          );
        }
        // The provider's own id is echoed by design (write.md §4); a cause never carries body text.
        if (result.status === 'failed' || result.status === 'unknown') expectNoCanary(result.cause);
        expect(fake.requests).toHaveLength(1);
      }),
      { numRuns: RESPONSE_FUZZ_RUNS.write },
    );
  });
});
