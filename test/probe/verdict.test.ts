// decideVerdict(): the table of probe.md §3, evaluated in order, and its exit codes.
import { describe, expect, test } from 'bun:test';
import { PRESETS } from '../../src/config/presets.ts';
import type { BaselineResult, PlacementResult, RawOutcome } from '../../src/probe/probe-report.ts';
import type { FailureClass } from '../../src/providers/failure.ts';
import { decideVerdict, VERDICT_EXIT_CODES, VERDICT_LINES } from '../../src/probe/verdict.ts';

const polardb = PRESETS['polardb-mysql-2026-08'];
const ok = { ok: true, items: 2 } as const;
const ids = (status: number, list?: string[]): RawOutcome => ({ status, ids: list, detail: list === undefined ? 'x' : undefined });
const rows = (filters: RawOutcome, both: RawOutcome): PlacementResult[] => [
  { placement: 'filters', preset: true, outcome: filters },
  { placement: 'root', preset: false, outcome: ids(200, ['a']) },
  { placement: 'both', preset: false, outcome: both },
];

describe('decideVerdict()', () => {
  test('the rows in order: a failed baseline wins over everything', () => {
    const failed = (id: FailureClass, status?: number): BaselineResult => ({ ok: false, reason: id, failure: { id, hint: 'h', ...(status === undefined ? {} : { status }) } });
    expect(decideVerdict(PRESETS['mem0-platform-v3'], false, failed('connection-refused'), undefined)).toBe('unreachable');
    expect(decideVerdict(polardb, false, failed('tls-untrusted-certificate'), undefined)).toBe('unreachable');
    expect(decideVerdict(polardb, false, failed('timeout'), undefined)).toBe('unreachable');
    expect(decideVerdict(polardb, false, failed('proxy-failure'), undefined)).toBe('unreachable');
    expect(decideVerdict(PRESETS['mem0-platform-v3'], false, failed('http-status', 401), undefined)).toBe('unauthorized');
    expect(decideVerdict(polardb, false, failed('http-status', 403), undefined)).toBe('unauthorized');
    expect(decideVerdict(PRESETS['mem0-platform-v3'], false, failed('http-status', 404), undefined)).toBe('preset-mismatch');
    expect(decideVerdict(polardb, false, failed('http-status', 500), undefined)).toBe('preset-mismatch');
    expect(decideVerdict(polardb, false, failed('invalid-envelope'), undefined)).toBe('preset-mismatch');
    expect(decideVerdict(PRESETS['mem0-platform-v3'], false, ok, undefined)).toBe('managed-contract');
    expect(decideVerdict(PRESETS['mem0-server-rest-2026-08'], true, ok, undefined)).toBe('already-dual-placement');
    expect(decideVerdict(polardb, false, ok, rows(ids(500), ids(200, ['a'])))).toBe('preset-mismatch');
    expect(decideVerdict(polardb, false, ok, rows(ids(200, []), ids(200, [])))).toBe('empty-corpus');
    expect(decideVerdict(polardb, false, ok, rows(ids(200), ids(200, ['a'])))).toBe('empty-corpus');
    expect(decideVerdict(polardb, false, ok, rows(ids(200, ['a']), ids(422)))).toBe('dual-placement-unsafe');
    expect(decideVerdict(polardb, false, ok, rows(ids(200, ['a', 'b']), ids(200, ['a', 'b'])))).toBe('dual-placement-safe');
    expect(decideVerdict(polardb, false, ok, rows(ids(200, ['a', 'b']), ids(200, ['a'])))).toBe('dual-placement-divergent');
    expect(decideVerdict(polardb, false, ok, rows(ids(200, ['a']), ids(200)))).toBe('dual-placement-divergent');
  });

  test('exit codes: 1 for preset-mismatch and empty-corpus, 0 otherwise; one line per verdict', () => {
    expect(
      Object.entries(VERDICT_EXIT_CODES)
        .filter(([, code]) => code === 1)
        .map(([id]) => id)
        .sort(),
    ).toEqual(['empty-corpus', 'preset-mismatch', 'unauthorized', 'unreachable']);
    expect(Object.keys(VERDICT_LINES).sort()).toEqual(Object.keys(VERDICT_EXIT_CODES).sort());
  });
});
