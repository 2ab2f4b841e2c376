// expectedInputMessage() and the embedded contract: the runner's own reading of profile-v1.md.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXPECTED_INPUT_SCHEMA, EXPECTED_OUTPUT_SCHEMA, expectedInputMessage, INVALID_INPUT_VECTORS, VALID_INPUT_VECTORS } from '../../src/conformance/profile-expectations.ts';
import { expectation, INVALID_INPUT_MESSAGES, VECTORS } from '../contract/vectors.ts';
import { REPO_ROOT } from '../support/paths.ts';

describe('expectedInputMessage()', () => {
  test('gives every invalid vector its §3.1 message and every valid one none', () => {
    for (const vector of INVALID_INPUT_VECTORS) expect(expectedInputMessage(vector.value)).toBe(expectation(INVALID_INPUT_MESSAGES, vector.name));
    for (const vector of VALID_INPUT_VECTORS) expect(expectedInputMessage(vector.value)).toBeUndefined();
    expect(expectedInputMessage(undefined)).toBe('Search query must be a string.');
  });
});

describe('the embedded contract', () => {
  test('is the files under contracts/v1 without $schema, $id and title, with every vector in file order', () => {
    const strip = (file: string): unknown => {
      const { $schema: _s, $id: _i, title: _t, ...rest } = JSON.parse(readFileSync(join(REPO_ROOT, 'contracts', 'v1', file), 'utf8')) as Record<string, unknown>;
      return rest;
    };
    expect(EXPECTED_INPUT_SCHEMA).toEqual(strip('context-search-input.schema.json') as never);
    expect(EXPECTED_OUTPUT_SCHEMA).toEqual(strip('context-search-output.schema.json') as never);
    expect(VALID_INPUT_VECTORS.map((v) => v.name)).toEqual(VECTORS.validInputs.map((v) => v.name));
    expect(INVALID_INPUT_VECTORS.map((v) => v.name)).toEqual(VECTORS.invalidInputs.map((v) => v.name));
  });
});
