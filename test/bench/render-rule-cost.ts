// The cost of the rule of model-visible text (issue 27 §3): p50 of bounding and rendering a
// 5-item answer with today's code against the frozen pre-issue-27 copy (test/bench/before-issue-27/),
// interleaved in one process so both sides see the same machine. Target: after within 0.2 ms of
// before for ordinary text. A hostile answer (tag characters, bidi controls in every field) is
// reported after-only, as the rule's slow path.
import { boundItems } from '../../src/contract/bound.ts';
import { renderEnvelope } from '../../src/contract/envelope.ts';
import { boundItems as boundItemsBefore } from './before-issue-27/bound.ts';
import { renderEnvelope as renderEnvelopeBefore } from './before-issue-27/envelope.ts';
import { median } from './stats.ts';

/** Target of issue 27: p50 after minus p50 before, in ms. */
export const RULE_COST_TARGET_MS = 0.2;
const WARM_UP_RUNS = 200;

/** The figures of one before/after comparison. */
export interface RuleCostFigures {
  readonly runs: number;
  readonly beforeP50Ms: number;
  readonly afterP50Ms: number;
  /** After-only p50 for a 5-item answer full of unsafe code points. */
  readonly hostileAfterP50Ms: number;
  readonly met: boolean;
}

// Ordinary text of several scripts, with angle brackets, as a corpus of documentation returns.
const ORDINARY = 'Use the reviewed <deployment> workflow; 部署策略は審査済みです。 سياسة النشر المعتمدة. नीति देखें। 🙂 ';
const HOSTILE = 'Use the workflow.\u{E0049}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065} \u202eadmin\u202c \u200b\u2066x\u2069\u00ad\u2028 ';

function answer(text: string): Record<string, unknown>[] {
  return Array.from({ length: 5 }, (_, index) => ({
    id: `doc-${index}#${text.slice(0, 20)}`,
    content: text.repeat(8),
    title: `Deployment policy ${index} ${text.slice(0, 40)}`,
    uri: `https://context.example.com/docs/${index}`,
    score: 0.9 - index / 10,
    updatedAt: '2026-08-13T00:00:00Z',
  }));
}

function time(render: () => unknown): number {
  const start = performance.now();
  render();
  return performance.now() - start;
}

/**
 * Measures the rule's cost.
 *
 * @param runs Timed runs of each side (interleaved).
 */
export function benchRuleCost(runs: number): RuleCostFigures {
  const ordinary = answer(ORDINARY);
  const hostile = answer(HOSTILE);
  const after = (): unknown => renderEnvelope(boundItems(ordinary));
  const before = (): unknown => renderEnvelopeBefore(boundItemsBefore(ordinary));
  const afterHostile = (): unknown => renderEnvelope(boundItems(hostile));
  for (let index = 0; index < WARM_UP_RUNS; index++) {
    before();
    after();
    afterHostile();
  }
  const samples = { before: [] as number[], after: [] as number[], hostile: [] as number[] };
  for (let index = 0; index < runs; index++) {
    // Alternate the order so neither side always runs on a warmer cache.
    if (index % 2 === 0) {
      samples.before.push(time(before));
      samples.after.push(time(after));
    } else {
      samples.after.push(time(after));
      samples.before.push(time(before));
    }
    samples.hostile.push(time(afterHostile));
  }
  const beforeP50Ms = median(samples.before);
  const afterP50Ms = median(samples.after);
  return { runs, beforeP50Ms, afterP50Ms, hostileAfterP50Ms: median(samples.hostile), met: afterP50Ms - beforeP50Ms <= RULE_COST_TARGET_MS };
}

if (import.meta.main) {
  const figures = benchRuleCost(2000);
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}
