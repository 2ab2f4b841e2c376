// Summary statistics of benchmark samples (figures only, never pass/fail).

/** The summary of one measured quantity, in ms unless the field says otherwise. */
export interface Summary {
  /** Samples taken (warm-up runs excluded). */
  readonly runs: number;
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
}

/**
 * The median of `values` (the mean of the two middle values for an even count).
 *
 * @throws {RangeError} If `values` is empty.
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median() needs at least one value.');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The nearest-rank percentile of `values`.
 *
 * @param q Quantile in 0…1 (0.99 for p99).
 * @throws {RangeError} If `values` is empty.
 */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new RangeError('percentile() needs at least one value.');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** Median, minimum and maximum of samples in ms. */
export function summarize(samplesMs: readonly number[]): Summary {
  return { runs: samplesMs.length, medianMs: median(samplesMs), minMs: Math.min(...samplesMs), maxMs: Math.max(...samplesMs) };
}
