// ownEnv(): the one environment read of src/ (docs/design/config.md §2, §7.1).
import { expect, test } from 'bun:test';
import { ownEnv } from '../../src/util/own-env.ts';

test('ownEnv() returns own string values, the empty string included', () => {
  expect(ownEnv({ NAME: 'value', EMPTY: '' }, 'NAME')).toBe('value');
  expect(ownEnv({ NAME: 'value', EMPTY: '' }, 'EMPTY')).toBe('');
});

test('ownEnv() never finds a name through the prototype', () => {
  for (const name of ['__proto__', 'toString', 'constructor', 'hasOwnProperty']) expect(ownEnv({}, name)).toBeUndefined();
  const inherited = Object.create({ SECRET: 'x' }) as Record<string, string>;
  expect(ownEnv(inherited, 'SECRET')).toBeUndefined();
});

test('ownEnv() treats a missing or undefined variable as unset', () => {
  expect(ownEnv({}, 'MISSING')).toBeUndefined();
  expect(ownEnv({ UNSET: undefined }, 'UNSET')).toBeUndefined();
});
