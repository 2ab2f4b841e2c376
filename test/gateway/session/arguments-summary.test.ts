import { expect, test } from 'bun:test';
import { argumentsSummary, operationText } from '../../../src/gateway/session/arguments-summary.ts';

test('argumentsSummary() is canonical JSON with long strings cut to 200 code points plus …', () => {
  expect(argumentsSummary({ b: 1, a: 'x' })).toBe('{"a":"x","b":1}');
  const summary = argumentsSummary({ title: '😀'.repeat(250) });
  expect(summary).toBe(`{"title":"${'😀'.repeat(200)}…"}`);
});

test('argumentsSummary() cuts the whole summary to 600 code points plus …', () => {
  const summary = argumentsSummary({ a: 'x'.repeat(199), b: 'y'.repeat(199), c: 'z'.repeat(199), d: 'w'.repeat(199) });
  expect(Array.from(summary)).toHaveLength(601);
  expect(summary.endsWith('…')).toBe(true);
});

test('operationText() keeps at most 400 code points of the description', () => {
  expect(Array.from(operationText('d'.repeat(500)))).toHaveLength(400);
  expect(operationText('Create an issue.')).toBe('Create an issue.');
});
