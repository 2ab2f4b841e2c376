// formatTextReport() and formatJsonReport(): the report layout of remote.md §2.3.
import { describe, expect, test } from 'bun:test';
import type { CheckResult } from '../../src/conformance/check-result.ts';
import { formatJsonReport, formatTextReport } from '../../src/conformance/format-report.ts';

const RESULTS: CheckResult[] = [
  { name: 'connect', status: 'PASS', reason: 'ok' },
  { name: 'tools-list', status: 'WARN', reason: 'other tools are present: "<x>"' },
  { name: 'annotations', status: 'FAIL', reason: 'annotations are {"readOnlyHint":true}, expected {"destructiveHint":false}' },
];

describe('formatTextReport()', () => {
  test('one "<STATUS> <check>: <reason>" line per check', () => {
    expect(formatTextReport(RESULTS)).toBe(
      'PASS connect: ok\nWARN tools-list: other tools are present: "<x>"\nFAIL annotations: annotations are {"readOnlyHint":true}, expected {"destructiveHint":false}\n',
    );
  });
});

describe('formatJsonReport()', () => {
  test('2-space JSON with ok, checks, escaped angle brackets and a trailing newline', () => {
    const text = formatJsonReport(RESULTS);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).not.toMatch(/[<>]/);
    expect(text).toContain('\\u003cx\\u003e');
    expect(text.startsWith('{\n  "ok": false,\n  "checks": [\n    {\n      "name": "connect",')).toBe(true);
    expect(JSON.parse(text)).toEqual({ ok: false, checks: RESULTS });
    expect(JSON.parse(formatJsonReport(RESULTS.slice(0, 2))).ok).toBe(true);
  });
});
