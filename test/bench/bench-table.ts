// Plain-text table of the benchmark results: one row per figure, with its reference ratio,
// target and verdict where the issue gives one.

/** One printed row. Absent cells print as `—`. */
export interface TableRow {
  /** The item number (`1`…`7`), or empty for a supporting row. */
  readonly item: string;
  readonly label: string;
  /** Median, with its unit. */
  readonly median: string;
  /** Minimum (or another secondary figure), with its unit. */
  readonly min?: string;
  /** Ratio to its reference, e.g. `6.91× floor`. */
  readonly ratio?: string;
  /** The target, e.g. `≤ 2.5×`. */
  readonly target?: string;
  /** Whether the target was met; undefined when there is none. */
  readonly met?: boolean;
}

const HEADERS = ['#', 'Measurement', 'Median', 'Min', 'Ratio', 'Target', 'Result'] as const;

/**
 * Formats rows as an aligned text table (header, rule, rows).
 *
 * @returns Lines without trailing newlines.
 */
export function formatTable(rows: readonly TableRow[]): string[] {
  const cells = rows.map((row) => [row.item, row.label, row.median, row.min ?? '—', row.ratio ?? '—', row.target ?? '—', row.met === undefined ? '—' : row.met ? 'PASS' : 'MISS']);
  const widths = HEADERS.map((header, column) => Math.max(header.length, ...cells.map((line) => (line[column] as string).length)));
  // Label left-aligned, figures right-aligned.
  const render = (line: readonly string[]): string =>
    line
      .map((cell, column) => (column <= 1 ? cell.padEnd(widths[column] as number) : cell.padStart(widths[column] as number)))
      .join('  ')
      .trimEnd();
  return [render(HEADERS), widths.map((width) => '-'.repeat(width)).join('  '), ...cells.map(render)];
}

/** `12.3 ms` (one decimal below 100 ms, none above). */
export function ms(value: number): string {
  return `${value < 100 ? value.toFixed(1) : value.toFixed(0)} ms`;
}

/** `6.91×` followed by the reference's name. */
export function ratio(value: number, reference: string): string {
  return `${value.toFixed(2)}× ${reference}`;
}
