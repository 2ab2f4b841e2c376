// serve's repeated-flag rule (docs/design/README.md, "Usage errors"): a value is never read as a flag.
import { describe, expect, test } from 'bun:test';
import { repeatedFlagError } from '../../src/cli/serve-flags.ts';

describe('repeatedFlagError()', () => {
  test('a flag-shaped value of --metrics-listen is its value, not a second flag', () => {
    expect(repeatedFlagError(['--http', '--metrics-listen', '--log-format', '--log-format', 'json'])).toBeUndefined();
  });

  test('every value flag of --http skips its value; a real repeat is still refused', () => {
    for (const flag of ['--listen', '--resource', '--issuer', '--jwks-url', '--scope', '--max-concurrency', '--log-format', '--metrics-listen', '--config']) {
      expect({ flag, error: repeatedFlagError([flag, '--http', '--http'])?.message }).toEqual({ flag, error: undefined });
    }
    expect(repeatedFlagError(['--config', 'a.json', '--config', 'b.json'])?.message).toContain('Option --config is given more than once.');
  });
});
