// Interleaved sampling: every round runs each subject once, in the same order, so a burst of
// load on a noisy machine hits the floor and the measured process alike and ratios stay fair.

/** One thing to time: `once()` runs it and returns its elapsed ms. */
export interface Subject {
  readonly key: string;
  once(): Promise<number>;
}

/**
 * Runs one untimed warm-up round (page cache, Deno's code cache), then `rounds` timed rounds.
 *
 * @param rounds Timed samples per subject.
 * @param onRound Called after each timed round with its 1-based number (progress output).
 * @returns Samples in ms per subject key, in round order.
 */
export async function sampleInterleaved(
  subjects: readonly Subject[],
  rounds: number,
  onRound: (round: number) => void = () => undefined,
): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(subjects.map((subject) => [subject.key, []]));
  for (const subject of subjects) await subject.once();
  for (let round = 1; round <= rounds; round++) {
    for (const subject of subjects) samples.get(subject.key)?.push(await subject.once());
    onRound(round);
  }
  return samples;
}
