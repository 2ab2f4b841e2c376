// The schema building blocks of config.md §4/§5: integer ranges, the
// unknown-key display rule and the mapping of a valibot issue onto `<path> <reason>`.
import { describe, expect, test } from 'bun:test';
import * as v from 'valibot';
import { AutoRecallSchema, describeIssue, plainKeyOrMark, integerInRange, Mem0PresetProviderSchema, REASONS, TimeoutMsSchema, WriteSchema } from '../../src/config/schema.ts';

function firstIssue(schema: v.GenericSchema, value: unknown): v.BaseIssue<unknown> {
  const result = v.safeParse(schema, value, { abortEarly: true });
  if (result.success) throw new Error('expected a failure');
  return result.issues[0];
}

describe('integerInRange()', () => {
  test('integerInRange() accepts integers within the bounds and rejects everything else', () => {
    const schema = integerInRange(1, 5000);
    for (const value of [1, 2500, 5000]) expect(v.is(schema, value)).toBe(true);
    for (const value of [0, 5001, 1.5, Number.NaN, Infinity, '1', null, undefined]) expect(v.is(schema, value)).toBe(false);
    expect(firstIssue(schema, 0).message).toBe('must be an integer from 1 to 5000');
  });

  test('TimeoutMsSchema defaults to 5000 ms', () => {
    expect(v.parse(TimeoutMsSchema, undefined)).toBe(5000);
  });
});

describe('plainKeyOrMark()', () => {
  test('plainKeyOrMark() shows plain keys of 1 to 64 characters verbatim and every other key as "?"', () => {
    for (const key of ['a', 'A-z_0$9', 'x'.repeat(64), '__proto__']) expect(plainKeyOrMark(key)).toBe(key);
    for (const key of ['', 'x'.repeat(65), 'a b', 'a.b', 'é', 'a\nb', 'sk-key/1']) expect(plainKeyOrMark(key)).toBe('?');
  });
});

describe('describeIssue()', () => {
  test('describeIssue() joins the prefix and the issue path with dots', () => {
    expect(describeIssue(firstIssue(AutoRecallSchema, { repositoryRoot: '/r', timeoutMs: 0 }), 'autoRecall')).toBe('autoRecall.timeoutMs must be an integer from 1 to 5000');
    expect(describeIssue(firstIssue(TimeoutMsSchema, 0), 'timeoutMs')).toBe('timeoutMs must be an integer from 1 to 30000');
  });

  test('describeIssue() names the root "config" when there is no path', () => {
    expect(describeIssue(firstIssue(WriteSchema, 1), '')).toBe(`config ${REASONS.object}`);
  });

  test('describeIssue() maps strict-object issues to required, unsupported and object reasons', () => {
    expect(describeIssue(firstIssue(WriteSchema, {}), 'write')).toBe('write.enabled is required');
    expect(describeIssue(firstIssue(WriteSchema, { enabled: true, 'odd key': 1 }), 'write')).toBe('write.? is not a supported field');
    expect(describeIssue(firstIssue(WriteSchema, []), 'write')).toBe('write must be an object');
  });

  test('describeIssue() reports nested mem0 paths', () => {
    const provider = {
      type: 'mem0',
      preset: 'polardb-mysql-2026-08',
      endpoint: { origin: 'https://m.example', basePath: 7 },
      credentialEnv: 'K',
      scope: { userId: 'u' },
    };
    expect(describeIssue(firstIssue(Mem0PresetProviderSchema, provider), 'provider')).toBe('provider.endpoint.basePath must be a string');
  });
});
