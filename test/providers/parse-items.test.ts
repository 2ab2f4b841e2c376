// parseItems(): the envelope check, per-element rules and the cap of 5 (providers.md §2).
import { describe, expect, test } from 'bun:test';
import { parseItems, type ItemMapping } from '../../src/providers/parse-items.ts';
import { ProviderError } from '../../src/providers/provider-error.ts';

const GENERIC: ItemMapping = { collection: 'items', contentFields: ['content'], directImportDecoding: false };
const SERVER: ItemMapping = { collection: 'results', contentFields: ['memory', 'content'], directImportDecoding: false };
const POLARDB: ItemMapping = { collection: 'results', contentFields: ['memory'], directImportDecoding: true };

const invalid = (value: unknown, mapping: ItemMapping): void => {
  let caught: unknown;
  try {
    parseItems(value, mapping);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ProviderError);
  expect((caught as ProviderError).kind).toBe('invalid-response');
};

describe('parseItems() envelope', () => {
  test.each([
    ['a top-level array', [{ id: 'a', content: 'x' }]],
    ['null', null],
    ['a string', 'items'],
    ['a missing collection', {}],
    ['a non-array collection', { items: { id: 'a' } }],
    ['the other collection name', { results: [] }],
  ])('%s is invalid', (_name, value) => invalid(value, GENERIC));

  test('the Mem0 family reads results, not items', () => {
    invalid({ items: [] }, SERVER);
    expect(parseItems({ results: [] }, SERVER)).toEqual([]);
  });
});

describe('parseItems() elements', () => {
  test('invalid elements are removed before the cap of 5, in provider order', () => {
    const items = [
      'not an object',
      null,
      [],
      { id: '', content: 'empty id' },
      { id: 7, content: 'numeric id' },
      { id: 'no-content' },
      { id: 'blank-content', content: '' },
      ...['1', '2', '3', '4', '5', '6'].map((n) => ({ id: `doc-${n}`, content: `Content ${n}` })),
    ];
    expect(parseItems({ items }, GENERIC).map((item) => item.id)).toEqual(['doc-1', 'doc-2', 'doc-3', 'doc-4', 'doc-5']);
  });

  test('wrong-typed optional fields are dropped one by one; the item stays', () => {
    const [item] = parseItems({ items: [{ id: 'a', content: 'x', title: 5, uri: null, score: '0.5', updated_at: 1 }] }, GENERIC);
    expect(item).toEqual({ id: 'a', content: 'x' });
  });

  test('all optional fields are kept when well typed; updated_at wins over updatedAt', () => {
    const [item] = parseItems({ items: [{ id: 'a', content: 'x', title: 'T', uri: 'docs/a.md#h', score: 0.25, updated_at: '2026-01-01T00:00:00Z', updatedAt: 'later' }] }, GENERIC);
    expect(item).toEqual({ id: 'a', content: 'x', title: 'T', uri: 'docs/a.md#h', score: 0.25, updatedAt: '2026-01-01T00:00:00Z' });
  });

  test('updatedAt is used when updated_at is not a string; non-finite scores are dropped', () => {
    const [first, second] = parseItems(
      {
        items: [
          { id: 'a', content: 'x', updated_at: null, updatedAt: '2026-02-02' },
          { id: 'b', content: 'y', score: Number.NaN },
        ],
      },
      GENERIC,
    );
    expect(first).toEqual({ id: 'a', content: 'x', updatedAt: '2026-02-02' });
    expect(second).toEqual({ id: 'b', content: 'y' });
  });

  test('oversized raw fields are passed through unchanged', () => {
    const content = 'x'.repeat(200_000);
    const title = 't'.repeat(10_000);
    expect(parseItems({ items: [{ id: 'a', content, title }] }, GENERIC)).toEqual([{ id: 'a', content, title }]);
  });

  test('the first content field that is a non-empty string wins', () => {
    const results = [
      { id: 'a', memory: 'from memory', content: 'from content' },
      { id: 'b', memory: '', content: 'from content' },
      { id: 'c', memory: 5, content: 'from content' },
      { id: 'd', memory: null },
    ];
    expect(parseItems({ results }, SERVER).map((item) => item.content)).toEqual(['from memory', 'from content', 'from content']);
    expect(parseItems({ results }, POLARDB).map((item) => item.id)).toEqual(['a']);
  });
});

describe('parseItems() Direct Import decoding (PolarDB)', () => {
  const encoded = JSON.stringify([{ role: 'user', content: 'Use pnpm.' }]);

  test('an element with infer:false and an encoded memory is decoded', () => {
    expect(parseItems({ results: [{ id: 'a', memory: encoded, infer: false }] }, POLARDB)[0]?.content).toBe('Use pnpm.');
  });

  test('without infer:false, or for other presets, the memory is unchanged', () => {
    expect(parseItems({ results: [{ id: 'a', memory: encoded }] }, POLARDB)[0]?.content).toBe(encoded);
    expect(parseItems({ results: [{ id: 'a', memory: encoded, infer: 'false' }] }, POLARDB)[0]?.content).toBe(encoded);
    expect(parseItems({ results: [{ id: 'a', memory: encoded, infer: false }] }, SERVER)[0]?.content).toBe(encoded);
  });

  test('other encodings are left unchanged', () => {
    const cases = [
      JSON.stringify([{ role: 'assistant', content: 'x' }]),
      JSON.stringify([{ role: 'user', content: '' }]),
      JSON.stringify([
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ]),
      '[not json',
      'plain text',
    ];
    for (const memory of cases) {
      expect(parseItems({ results: [{ id: 'a', memory, infer: false }] }, POLARDB)[0]?.content).toBe(memory);
    }
  });
});
