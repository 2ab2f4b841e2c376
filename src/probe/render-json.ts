// The probe's `--json` report: one object, 2-space indentation, keys in the order of
// docs/design/probe.md §4.1, `<` and `>` escaped.
import { stringifyEscaped } from '../contract/escape.ts';
import type { ProbeReport, RawOutcome } from './probe-report.ts';

function detailOf(outcome: RawOutcome): { detail?: string } {
  // An empty body gives an empty detail, which is left out as in the text report.
  return outcome.detail === undefined || outcome.detail === '' ? {} : { detail: outcome.detail };
}

/**
 * Builds the JSON report object. Pure.
 *
 * @param report The probe's findings.
 * @param exitCode The exit code the probe returns.
 * @returns An object whose key order is the serialized order.
 * @see docs/design/probe.md §4.1
 */
export function jsonReport(report: ProbeReport, exitCode: number): Record<string, unknown> {
  const schema = report.declaredSchema;
  const unknown = report.unknownField;
  return {
    preset: report.preset,
    endpoint: report.endpoint,
    declaredSchema: schema.served ? { name: schema.name, fields: schema.fields, additionalProperties: schema.additionalProperties ?? null } : null,
    baseline: report.baseline.ok
      ? { ok: true, items: report.baseline.items }
      : {
          ok: false,
          reason: report.baseline.reason,
          class: report.baseline.failure.id,
          ...(report.baseline.failure.status === undefined ? {} : { status: report.baseline.failure.status }),
          hint: report.baseline.failure.hint,
        },
    unknownFieldPolicy: {
      result: unknown.result,
      status: unknown.outcome.status,
      ...(unknown.result === 'ignored' ? {} : detailOf(unknown.outcome)),
    },
    placements:
      report.placements?.map(({ placement, preset, outcome }) => ({
        placement,
        preset,
        status: outcome.status,
        ids: outcome.ids ?? null,
        ...detailOf(outcome),
      })) ?? null,
    verdict: report.verdict,
    exitCode,
  };
}

/**
 * Renders the JSON report as stdout text. Pure.
 *
 * @returns The serialized object with a trailing newline.
 * @see docs/design/probe.md §4.1
 */
export function renderJsonReport(report: ProbeReport, exitCode: number): string {
  return `${stringifyEscaped(jsonReport(report, exitCode), 2)}\n`;
}
