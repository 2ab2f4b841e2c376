// Worst-case rendering, in-process: a 1 MiB (1,048,576-byte) Generic HTTP answer of five items
// full of `<`, `>`, quotes, backslashes, control characters and astral characters, taken from
// raw bytes through strict UTF-8 decoding, JSON parsing, the adapter's item parsing, bounding
// and rendering, the same functions a search runs after its body is read.
import { boundItems } from '../../src/contract/bound.ts';
import { renderEnvelope } from '../../src/contract/envelope.ts';
import { parseSearchResponse } from '../../src/providers/generic-http-search-v1.ts';
import { MAX_RESPONSE_BYTES } from '../../src/providers/response-body.ts';
import { summarize, type Summary } from './stats.ts';

/** Untimed runs before the timed ones (JIT warm-up). */
const WARM_UP_RUNS = 5;

// Every character class the escaper and the code-point cuts must handle: angle brackets,
// quotes, a backslash, C0 controls (JSON writes them as \u00XX), DEL, U+2028, and astral
// characters (two UTF-16 units, one code point).
const NASTY_UNIT = '<script>"a"</script>\'\\\u0000\u0001\u0007\u001b\u001f\u007f\u2028😀𝄞🂡>';

/** The figures of the worst-case render. */
export interface RenderFigures {
  /** Size of the answer body in bytes (exactly 1 MiB). */
  readonly bodyBytes: number;
  /** The first, cold run in ms (includes JIT compilation of the path). */
  readonly firstRunMs: number;
  /** Timed runs after the warm-up. */
  readonly total: Summary;
  /** Median ms of each stage: decode + JSON.parse + item parsing, bounding, rendering. */
  readonly stagesMedianMs: { readonly parse: number; readonly bound: number; readonly render: number };
  /** UTF-16 length of the rendered text (at most 4000). */
  readonly renderedUnits: number;
  /** Items kept after bounding. */
  readonly itemsKept: number;
}

/**
 * Builds the worst-case answer: `{"items":[five items]}` whose JSON is exactly `targetBytes`
 * bytes of UTF-8, nearly all of it in `content`, `title` and `uri` strings.
 *
 * @param targetBytes Body size in bytes (default 1,048,576).
 * @throws {RangeError} If the size cannot be met exactly.
 */
export function worstCaseBody(targetBytes: number = MAX_RESPONSE_BYTES): Uint8Array {
  const encoder = new TextEncoder();
  const size = (value: unknown): number => encoder.encode(JSON.stringify(value)).byteLength;
  const makeItems = (repeats: number, padding: number): unknown[] =>
    Array.from({ length: 5 }, (_, index) => ({
      id: `worst-${index}-${NASTY_UNIT}`,
      content: NASTY_UNIT.repeat(repeats) + (index === 4 ? 'x'.repeat(padding) : ''),
      title: NASTY_UNIT.repeat(8),
      uri: `https://example.test/${NASTY_UNIT.repeat(4)}`,
      score: 0.5,
      updatedAt: `2026-01-01T00:00:00Z${NASTY_UNIT}`,
    }));
  const unitBytes = size(NASTY_UNIT) - 2;
  const repeats = Math.floor((targetBytes - size({ items: makeItems(0, 0) })) / (5 * unitBytes));
  const padding = targetBytes - size({ items: makeItems(repeats, 0) });
  const body = encoder.encode(JSON.stringify({ items: makeItems(repeats, padding) }));
  if (body.byteLength !== targetBytes) throw new RangeError(`The worst-case body is ${body.byteLength} bytes, not ${targetBytes}.`);
  return body;
}

function renderOnce(body: Uint8Array): { parse: number; bound: number; render: number; units: number; kept: number } {
  const t0 = performance.now();
  const items = parseSearchResponse(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)));
  const t1 = performance.now();
  const bounded = boundItems(items);
  const t2 = performance.now();
  const rendered = renderEnvelope(bounded);
  const t3 = performance.now();
  return { parse: t1 - t0, bound: t2 - t1, render: t3 - t2, units: rendered.text.length, kept: bounded.length };
}

/**
 * Times the worst-case render.
 *
 * @param runs Timed runs.
 */
export function benchWorstCaseRender(runs: number): RenderFigures {
  const body = worstCaseBody();
  const first = renderOnce(body);
  for (let run = 1; run < WARM_UP_RUNS; run++) renderOnce(body);
  // Collect what earlier benchmarks in this process left behind (10,000 warm calls' worth), so
  // their collection does not land in these samples; the render's own garbage still does.
  Bun.gc(true);
  const samples = Array.from({ length: runs }, () => renderOnce(body));
  const medianOf = (pick: (sample: (typeof samples)[number]) => number): number => summarize(samples.map(pick)).medianMs;
  return {
    bodyBytes: body.byteLength,
    firstRunMs: first.parse + first.bound + first.render,
    total: summarize(samples.map((sample) => sample.parse + sample.bound + sample.render)),
    stagesMedianMs: { parse: medianOf((s) => s.parse), bound: medianOf((s) => s.bound), render: medianOf((s) => s.render) },
    renderedUnits: first.units,
    itemsKept: first.kept,
  };
}

if (import.meta.main) console.log(JSON.stringify(benchWorstCaseRender(30), null, 2));
