// The rule of model-visible text under adversarial provider answers (issue 27 §3; profile-v1.md
// §5.2, hooks.md §3.3, frontend-mcp.md §7): random items mixing every escaped category with
// ordinary multilingual text, at and around every length cap, through the one search path
// (`runSearch`: the stdio and HTTP envelope and the auto-recall Hook's additionalContext), the
// write-confirmation display and the gateway's result bounding. No unsafe code point is left raw
// on any surface, the budget holds, S equals JSON.parse(T), and ordinary text is unchanged.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { runSearch } from '../../src/search/run-search.ts';
import type { SearchProvider } from '../../src/providers/types.ts';
import { displayContent } from '../../src/hooks/display-content.ts';
import { boundError, boundSuccess, serializedBytes } from '../../src/gateway/result/bound-result.ts';

/** Fuzz run counts. */
export const MODEL_TEXT_FUZZ_RUNS = { providerAnswers: 10_000, display: 2_000, gateway: 2_000 } as const;

// The oracle, written independently of src/contract/escape.ts: what must never appear raw.
const UNSAFE = /[\u007f-\u009f\u2028\u2029\p{Cf}\p{Co}\p{Cs}\p{Noncharacter_Code_Point}]/u;
// A joiner may stay raw only between two letters, marks or emoji parts; removed before the test.
const JOINED = /(?<=[\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f])[\u200c\u200d](?=[\p{L}\p{M}\p{Extended_Pictographic}])/gu;
function rawUnsafe(text: string): boolean {
  return UNSAFE.test(text.replace(JOINED, ''));
}

/** One sample per escaped category, and ordinary text in several scripts. */
const HOSTILE_UNITS = [
  '\u007f',
  '\u0085',
  '\u009f',
  '\u2028',
  '\u2029', // DEL, C1, separators
  '\u{E0001}',
  '\u{E0041}',
  '\u{E0069}',
  '\u{E007F}', // tag characters
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f', // bidi
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\u2063',
  '\u00ad',
  '\ufeff',
  '\u180e',
  '\u{110BD}',
  '\u{1D173}', // Cf
  '\ue000',
  '\uf8ff',
  '\u{F0000}',
  '\u{10FFFD}', // private use
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff', // lone surrogates
  '\ufdd0',
  '\ufdef',
  '\ufffe',
  '\uffff',
  '\u{1FFFF}',
  '\u{10FFFE}', // noncharacters
] as const;
const ORDINARY_UNITS = ['a', 'Z', ' ', '\n', '<', '>', '"', '\\', '部', '署', 'ب', 'ی', 'क', '्', 'ष', 'é', '\u0301', '🙂', '👩', '🏽', '\ufe0f', 'ß', '日'] as const;

const hostileText = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...HOSTILE_UNITS) }, { weight: 3, arbitrary: fc.constantFrom(...ORDINARY_UNITS) }), minLength, maxLength });
const ordinaryText = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...ORDINARY_UNITS.filter((unit) => unit !== '<' && unit !== '>')), minLength, maxLength });
/** Text at and around a cap: short, or within a few units of it on either side. */
// Long values repeat a short random piece up to the length, so 10,000 runs stay cheap to generate.
const aroundCap = (cap: number, text: (min: number, max: number) => fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    text(1, 20),
    fc.tuple(text(1, 12), fc.integer({ min: Math.max(1, cap - 3), max: cap + 3 })).map(([piece, length]) =>
      Array.from(piece.repeat(Math.ceil(length / piece.length)))
        .slice(0, length)
        .join(''),
    ),
  );
const uri = fc.oneof(
  fc.constantFrom('javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'https://example.com/a', 'docs/a.md#b', ' javascript:x', 'java\nscript:x'),
  aroundCap(500, hostileText),
);

function item(text: (min: number, max: number) => fc.Arbitrary<string>): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    {
      id: aroundCap(128, text),
      content: aroundCap(1000, text),
      title: aroundCap(200, text),
      uri,
      score: fc.double({ noNaN: true, noDefaultInfinity: true }),
      updatedAt: aroundCap(64, text),
    },
    { requiredKeys: ['id', 'content'] },
  );
}

function answering(items: readonly Record<string, unknown>[]): SearchProvider {
  return { search: async () => items.map((raw) => ({ ...raw })) as never };
}

describe('model-visible text fuzzing', () => {
  test(`adversarial provider answers through runSearch: nothing unsafe raw, budget, S = JSON.parse(T), uri schemes (${MODEL_TEXT_FUZZ_RUNS.providerAnswers} runs)`, async () => {
    const seen = { escaped: 0, ordinary: 0, droppedUri: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc
          .oneof({ weight: 4, arbitrary: item(hostileText) }, { weight: 1, arbitrary: item(ordinaryText) })
          .chain((first) => fc.array(item(hostileText), { maxLength: 4 }).map((rest) => [first, ...rest])),
        async (items) => {
          const outcome = await runSearch(answering(items), { query: 'deployment policy' }, { signal: AbortSignal.timeout(60_000) });
          if (outcome.status !== 'ok') throw new Error(`search did not render: ${outcome.status}`);
          const { text, structuredContent } = outcome.rendered;
          expect(text.length).toBeLessThanOrEqual(4000);
          expect(/[<>]/.test(text)).toBe(false);
          expect(rawUnsafe(text)).toBe(false);
          // Clients that show the model structuredContent (Qwen Code) see no raw unsafe code point either.
          expect(rawUnsafe(JSON.stringify(structuredContent))).toBe(false);
          expect(structuredContent).toStrictEqual(JSON.parse(text));
          const rendered = structuredContent.untrusted_external_context.items;
          for (const kept of rendered) {
            if (kept.uri !== undefined) expect(/^https?:\/\/|^(?![a-z][a-z0-9+.-]*:)(?!\/\/)/i.test(kept.uri) && !/[\u0000-\u0020\u007f\\]/.test(kept.uri)).toBe(true);
          }
          if (rendered.some((kept, index) => kept.uri === undefined && typeof items[index]?.['uri'] === 'string')) seen.droppedUri++;
          if (/\\\\u[0-9a-f]{4}/.test(text)) seen.escaped++;
          // Ordinary text: no unsafe code point in the parsed result, so T is JSON.stringify(S) with < and > escaped alone.
          if (!UNSAFE.test(JSON.stringify(structuredContent))) {
            seen.ordinary++;
            expect(text).toBe(JSON.stringify(structuredContent).replaceAll('<', '\\u003c').replaceAll('>', '\\u003e'));
          }
        },
      ),
      { numRuns: MODEL_TEXT_FUZZ_RUNS.providerAnswers },
    );
    // Not vacuous: each kind of answer was common.
    expect(seen.escaped).toBeGreaterThan(MODEL_TEXT_FUZZ_RUNS.providerAnswers / 2);
    expect(seen.ordinary).toBeGreaterThan(MODEL_TEXT_FUZZ_RUNS.providerAnswers / 50);
    expect(seen.droppedUri).toBeGreaterThan(MODEL_TEXT_FUZZ_RUNS.providerAnswers / 10);
  }, 600_000);

  test(`write-confirmation display: nothing unsafe raw and reversible (${MODEL_TEXT_FUZZ_RUNS.display} runs)`, () => {
    fc.assert(
      fc.property(aroundCap(1000, hostileText), (content) => {
        const shown = displayContent(content);
        expect(rawUnsafe(shown)).toBe(false);
        expect(JSON.parse(shown)).toBe(content);
      }),
      { numRuns: MODEL_TEXT_FUZZ_RUNS.display },
    );
  }, 600_000);

  test(`gateway results: nothing unsafe raw in the serialized envelope, within maxResultBytes (${MODEL_TEXT_FUZZ_RUNS.gateway} runs)`, () => {
    fc.assert(
      fc.property(hostileText(0, 3000), hostileText(0, 40), hostileText(0, 200), fc.integer({ min: 1024, max: 8192 }), (text, key, value, maxBytes) => {
        const success = boundSuccess({ content: [{ type: 'text', text }], structuredContent: { [key]: value, nested: [value] } }, maxBytes);
        const error = boundError(text, true, maxBytes);
        for (const envelope of [success, error]) {
          if (envelope === null) continue;
          expect(rawUnsafe(JSON.stringify(envelope))).toBe(false);
          expect(serializedBytes(envelope)).toBeLessThanOrEqual(maxBytes);
        }
      }),
      { numRuns: MODEL_TEXT_FUZZ_RUNS.gateway },
    );
  }, 600_000);
});
