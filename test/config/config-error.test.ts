// ConfigError: spec message, field path, cause kept out of the message.
import { describe, expect, test } from 'bun:test';
import { ConfigError } from '../../src/config/config-error.ts';

describe('ConfigError', () => {
  test('ConfigError carries the message, its name and the field path', () => {
    const error = new ConfigError('External context config is invalid: version must be 1 or 2.', 'version');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ConfigError');
    expect(error.fieldPath).toBe('version');
    expect(error.message).toBe('External context config is invalid: version must be 1 or 2.');
  });

  test('ConfigError keeps a cause without putting it in the message', () => {
    const cause = new Error('ENOENT: /CANARY/path');
    const error = new ConfigError('External context config could not be read.', undefined, { cause });
    expect(error.cause).toBe(cause);
    expect(error.fieldPath).toBeUndefined();
    expect(error.message).not.toContain('CANARY');
  });
});
