// ownField(): the one own-property field read of src/ (src/util/own-field.ts).
import { expect, test } from 'bun:test';
import { ownField } from '../../src/util/own-field.ts';

test('ownField() returns a field the object itself has, falsy values included', () => {
  expect(ownField({ prompt: 'hello' }, 'prompt')).toBe('hello');
  expect(ownField({ empty: '' }, 'empty')).toBe('');
  expect(ownField({ none: null }, 'none')).toBeNull();
});

test('ownField() never finds an inherited name such as toString or __proto__', () => {
  expect(ownField({}, 'toString')).toBeUndefined();
  expect(ownField({}, '__proto__')).toBeUndefined();
  expect(ownField(Object.create({ prompt: 'inherited' }) as object, 'prompt')).toBeUndefined();
});

test('ownField() reads a parsed __proto__ key as the own field it is', () => {
  const parsed = JSON.parse('{"__proto__": "own"}') as object;
  expect(ownField(parsed, '__proto__')).toBe('own');
});
