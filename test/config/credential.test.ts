// resolveCredential() and isUsableCredential(): own-property lookup, the unavailable rules,
// and a message that never names the variable or contains the value (config.md §7.1).
import { describe, expect, test } from 'bun:test';
import process from 'node:process';
import { ConfigError } from '../../src/config/config-error.ts';
import { isHeaderValueSafe, isUsableCredential, resolveCredential } from '../../src/config/credential.ts';
import { thrownBy } from '../support/thrown-error.ts';

const VARIABLE = 'CANARY_VAR_5e1c';
const VALUE = 'sk-CANARY-value-77d0';

function failure(env: Record<string, unknown>, name: string, field: 'tokenEnv' | 'apiKeyEnv' | 'credentialEnv' = 'tokenEnv'): ConfigError {
  const configError = thrownBy(ConfigError, () => resolveCredential(env as Record<string, string | undefined>, name, field));
  expect(configError.message).toBe(`Configured external context credential is unavailable. Field: provider.${field}.`);
  expect(configError.fieldPath).toBe(`provider.${field}`);
  expect(configError.message).not.toContain(name);
  return configError;
}

describe('resolveCredential()', () => {
  test('resolveCredential() returns the value unmodified', () => {
    expect(resolveCredential({ [VARIABLE]: VALUE }, VARIABLE, 'tokenEnv')).toBe(VALUE);
    // Surrounding spaces are kept: the value is used as is (only blank values are rejected).
    expect(resolveCredential({ [VARIABLE]: ' key ' }, VARIABLE, 'tokenEnv')).toBe(' key ');
  });

  test('resolveCredential() names the field of each provider type, never the variable', () => {
    for (const field of ['tokenEnv', 'apiKeyEnv', 'credentialEnv'] as const) failure({}, VARIABLE, field);
  });

  test('resolveCredential() rejects an absent, non-string, empty or whitespace-only value', () => {
    for (const value of [undefined, null, 42, {}, '', ' ', '\t\n', '\u00a0\u2003', '\ufeff']) {
      const error = failure({ [VARIABLE]: value }, VARIABLE);
      expect(error.message).not.toContain(VALUE);
    }
    failure({}, VARIABLE);
  });

  test('resolveCredential() rejects unresolved ${NAME} placeholders, whatever the name', () => {
    for (const value of ['${CONTEXT_TOKEN}', '${OTHER}', '${_}', `\${${VARIABLE}}`]) failure({ [VARIABLE]: value }, VARIABLE);
  });

  test('resolveCredential() accepts values that only look partly like a placeholder', () => {
    for (const value of ['${1BAD}', 'x${OTHER}', '${OTHER}x', '$OTHER', '${}']) {
      expect(resolveCredential({ [VARIABLE]: value }, VARIABLE, 'tokenEnv')).toBe(value);
    }
  });

  test('resolveCredential() rejects values with a control character (U+0000–U+001F, U+007F)', () => {
    for (const value of ['a\u0000b', 'key\n', 'key\r\n', '\tkey', 'k\u001fey', 'key\u007f']) {
      const error = failure({ [VARIABLE]: value }, VARIABLE);
      expect(error.message).not.toContain('key');
    }
    // U+0080 and other non-ASCII characters are not control characters under this rule.
    expect(resolveCredential({ [VARIABLE]: 'k\u0080é' }, VARIABLE, 'tokenEnv')).toBe('k\u0080é');
  });

  test('resolveCredential() never finds __proto__, constructor or toString through the prototype', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      failure({}, name);
      failure(process.env, name);
      failure(Object.create({ [name]: VALUE }) as Record<string, unknown>, name);
    }
  });

  test('resolveCredential() ignores a value inherited from the environment prototype', () => {
    failure(Object.create({ [VARIABLE]: VALUE }) as Record<string, unknown>, VARIABLE);
  });

  test('resolveCredential() finds an own __proto__ property when the environment really has one', () => {
    const env = JSON.parse('{"__proto__":"sk-own-proto"}') as Record<string, string>;
    expect(resolveCredential(env, '__proto__', 'tokenEnv')).toBe('sk-own-proto');
  });
});

describe('isUsableCredential()', () => {
  test('isUsableCredential() applies the same rules as resolveCredential()', () => {
    expect(isUsableCredential('sk-1')).toBe(true);
    for (const value of [undefined, 1, '', '  ', '${X}', 'a\nb']) expect(isUsableCredential(value)).toBe(false);
  });

  test('a credential a header cannot carry (above U+00FF, DEL) is unusable; Latin-1 is fine, as fetch agrees', () => {
    for (const value of ['tok\u20acn', 'sk-\u{1F511}', '\u0100']) {
      expect(isUsableCredential(value)).toBe(false);
      expect(isHeaderValueSafe(value)).toBe(false);
      expect(() => new Headers({ authorization: `Bearer ${value}` })).toThrow();
    }
    expect(isHeaderValueSafe('a\u007fb')).toBe(false);
    expect(isUsableCredential('caf\u00e9-token')).toBe(true);
    expect(() => new Headers({ authorization: 'Bearer caf\u00e9-token' })).not.toThrow();
  });
});
