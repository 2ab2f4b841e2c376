// Interleaved sampling: every round runs each subject once, in the same order, so a burst of
// load on a noisy machine hits the floor and the measured process alike and ratios stay fair.
import type { Sample } from './process-timing.ts';

/** One thing to time: `once()` runs it and returns its elapsed ms, or ms and CPU ms. */
export interface Subject {
  readonly key: string;
  once(): Promise<number | Sample>;
}

/** The key under which a subject's CPU samples are kept next to its wall-clock ones. */
export function cpuKey(key: string): string {
  return `${key}.cpu`;
}

/**
 * Runs one untimed warm-up round (page cache, Deno's code cache), then `rounds` timed rounds.
 *
 * @param rounds Timed samples per subject.
 * @param onRound Called after each timed round with its 1-based number (progress output).
 * @returns Samples in ms per subject key, in round order; CPU samples under {@link cpuKey}.
 */
export async function sampleInterleaved(subjects: readonly Subject[], rounds: number, onRound: (round: number) => void = () => undefined): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(subjects.map((subject) => [subject.key, []]));
  for (const subject of subjects) await subject.once();
  for (let round = 1; round <= rounds; round++) {
    for (const subject of subjects) {
      const sample = await subject.once();
      if (typeof sample === 'number') {
        samples.get(subject.key)?.push(sample);
        continue;
      }
      samples.get(subject.key)?.push(sample.ms);
      if (sample.cpuMs === undefined) continue;
      const cpu = samples.get(cpuKey(subject.key)) ?? [];
      cpu.push(sample.cpuMs);
      samples.set(cpuKey(subject.key), cpu);
    }
    onRound(round);
  }
  return samples;
}
