import { expect, test } from 'bun:test';
import { normalizeInputSchema } from '../../../src/gateway/discovery/normalize-input-schema.ts';

test('normalizeInputSchema() replaces a non-object or an array with an empty object schema', () => {
  for (const schema of [undefined, null, 'x', [], 3]) expect(normalizeInputSchema(schema)).toEqual({ type: 'object', properties: {} });
});

test('normalizeInputSchema() adds a missing type and deep-clones the schema', () => {
  const schema = { properties: { q: { type: 'string' } }, $ref: '#/x' };
  const result = normalizeInputSchema(schema);
  expect(result).toEqual({ type: 'object', properties: { q: { type: 'string' } }, $ref: '#/x' });
  (result['properties'] as Record<string, unknown>)['q'] = 0;
  expect(schema.properties.q).toEqual({ type: 'string' });
});

test('normalizeInputSchema() rejects another type and schemas over 16384 bytes', () => {
  expect(() => normalizeInputSchema({ type: 'array' })).toThrow('Frontend MCP tool input schema must describe an object.');
  const big = { type: 'object', description: '界'.repeat(5500) };
  expect(() => normalizeInputSchema(big)).toThrow('Frontend MCP tool input schema exceeds the limit.');
  const fits = { type: 'object', d: 'x'.repeat(16384 - 30) };
  expect(JSON.stringify(fits).length).toBeLessThanOrEqual(16384);
  expect(normalizeInputSchema(fits)).toEqual(fits);
});
