// The conformance report as tests read it: every check name in report order, and the text
// report parsed into lines (docs/design/remote.md §2.2, §2.3).

/** Every check name, in report order (remote.md §2.2). */
export const CHECK_NAMES: readonly string[] = [
  'connect',
  'tools-list',
  'tool-identity',
  'annotations',
  'input-schema',
  'output-schema',
  ...['plain query', 'multiline Unicode query', 'maximum astral query', 'single character query', 'query padded with whitespace', 'maximum ASCII query'].map((n) => `input-vector: ${n}`),
  ...[
    'missing query',
    'blank query',
    'model-selected corpus',
    'over-long astral query',
    'non-string query',
    'empty query',
    'null query',
    'model-selected limit',
    'model-selected filter',
    'over-long ASCII query',
  ].map((n) => `input-vector: ${n}`),
  'extra-argument',
  'unknown-tool',
  'search-result',
  'output-valid',
  'text-equals-structured',
  'escaped-text',
  'bounds',
  'inert-items',
];

/** One line of the text report. */
export interface ReportLine {
  readonly status: string;
  readonly name: string;
  readonly reason: string;
}

/** Parses the text report; throws on a line that is not `PASS|FAIL|WARN|SKIP <check>: <reason>`. */
export function parseReport(stdout: string): ReportLine[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const match = /^(PASS|FAIL|WARN|SKIP) (input-vector: .+?|[a-z-]+): (.*)$/.exec(line);
      if (match === null) throw new Error(`Not a report line: ${line}`);
      return { status: match[1] as string, name: match[2] as string, reason: match[3] as string };
    });
}
