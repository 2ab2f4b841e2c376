// The probe's text report on stdout, line for line as docs/design/probe.md §4 lays it out.
import type { ProbeReport, RawOutcome } from './probe-report.ts';
import { stripUnsafe } from './sanitize-detail.ts';
import { VERDICT_LINES } from './verdict.ts';

/** Width the placement labels are padded to, in characters (docs/design/probe.md §4). */
export const PLACEMENT_LABEL_WIDTH = 24;

const PLACEMENT_LABELS = { filters: 'filters only', root: 'request root only', both: 'both' } as const;
const INDENT = '  ';

function schemaLines(report: ProbeReport): string[] {
  const schema = report.declaredSchema;
  if (!schema.served) return [`${INDENT}not served${schema.status === undefined ? '' : ` (HTTP ${schema.status})`}`];
  const additional = schema.additionalProperties === undefined ? '(unset)' : stripUnsafe(JSON.stringify(schema.additionalProperties), '');
  return [`${INDENT}${schema.name}: ${schema.fields.join(', ')}`, `${INDENT}additionalProperties: ${additional}`];
}

function baselineLine(report: ProbeReport): string {
  const baseline = report.baseline;
  if (!baseline.ok) return `${INDENT}failed: ${baseline.reason}`;
  return `${INDENT}ok: ${baseline.items} usable item${baseline.items === 1 ? '' : 's'}`;
}

function withDetail(text: string, outcome: RawOutcome): string {
  return outcome.detail === undefined || outcome.detail === '' ? text : `${text} ${outcome.detail}`;
}

function placementLines(report: ProbeReport): string[] {
  if (report.placements === undefined) return [];
  const rows = report.placements.map(({ placement, preset, outcome }) => {
    const label = `${PLACEMENT_LABELS[placement]}${preset ? ' (preset)' : ''}`;
    // A label that fills the column still gets one separating space.
    const padded = label.length < PLACEMENT_LABEL_WIDTH ? label.padEnd(PLACEMENT_LABEL_WIDTH) : `${label} `;
    const result = outcome.ids !== undefined ? `ids=[${outcome.ids.join(',')}]` : (outcome.detail ?? '');
    return `${INDENT}${padded}HTTP ${String(outcome.status).padEnd(4)}${result}`.trimEnd();
  });
  return ['', '4. Scope placement', ...rows];
}

/** For `unreachable` and `unauthorized`: the failure class and its one-line hint (docs/design/probe.md §4). */
function causeLines(report: ProbeReport): string[] {
  if ((report.verdict !== 'unreachable' && report.verdict !== 'unauthorized') || report.baseline.ok) return [];
  return [`${INDENT}Cause: ${report.baseline.reason}`, `${INDENT}Hint: ${report.baseline.failure.hint}`];
}

/**
 * Renders the text report. Pure.
 *
 * @param report The probe's findings.
 * @returns The report lines joined by `\n`, starting with a blank line and ending with `\n`.
 * @see docs/design/probe.md §4
 */
export function renderTextReport(report: ProbeReport): string {
  const unknown = report.unknownField;
  const lines = [
    '',
    `Preset:   ${report.preset}`,
    `Endpoint: ${report.endpoint}  (read-only)`,
    '',
    '1. Declared schema',
    ...schemaLines(report),
    '',
    '2. This preset, through the real adapter',
    baselineLine(report),
    '',
    '3. Unknown-field policy',
    unknown.result === 'ignored' ? `${INDENT}ignored (HTTP ${unknown.outcome.status})` : `${INDENT}${withDetail(`${unknown.result} (HTTP ${unknown.outcome.status})`, unknown.outcome)}`,
    ...placementLines(report),
    '',
    'Verdict',
    `${INDENT}${VERDICT_LINES[report.verdict]}`,
    ...causeLines(report),
  ];
  return `${lines.join('\n')}\n`;
}
