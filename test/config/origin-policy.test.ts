// applyOriginPolicy(): the config.md §8 table in order, exact messages and field suffixes.
import { describe, expect, test } from 'bun:test';
import { ConfigError } from '../../src/config/config-error.ts';
import { applyOriginPolicy, type OriginPolicyOptions } from '../../src/config/origin-policy.ts';
import { thrownBy } from '../support/thrown-error.ts';

const MEM0: OriginPolicyOptions = { caller: 'mem0', allowInsecureHttp: false, fieldPath: 'provider.endpoint.origin' };
const GENERIC: OriginPolicyOptions = { caller: 'generic-http-search-v1', allowInsecureHttp: false, fieldPath: 'provider.baseUrl' };
const NOT_ORIGIN = 'Provider URL must not contain credentials, path, query, or fragment.';
const HTTPS_ONLY = 'Provider URL must use HTTPS or loopback HTTP.';
const MEM0_HINT = 'Provider URL must use HTTPS or loopback HTTP; set "allowInsecureHttp": true to permit plain HTTP for this provider.';

function failure(value: string, options: OriginPolicyOptions): ConfigError {
  return thrownBy(ConfigError, () => applyOriginPolicy(value, options));
}

describe('applyOriginPolicy()', () => {
  test.each([
    ['https://memory.example', 'https://memory.example'],
    ['https://MEMORY.example:443/', 'https://memory.example'],
    ['https://memory.example:8443', 'https://memory.example:8443'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://127.0.0.1:8888/', 'http://127.0.0.1:8888'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['http://127.0.0.1', 'http://127.0.0.1'],
  ])('accepts %s and returns the normalized origin %s', (value, origin) => {
    expect(applyOriginPolicy(value, MEM0)).toBe(origin);
    expect(applyOriginPolicy(value, GENERIC)).toBe(origin);
  });

  test('allowInsecureHttp admits a non-loopback http origin for mem0', () => {
    expect(applyOriginPolicy('http://192.0.2.1:8080', { ...MEM0, allowInsecureHttp: true })).toBe('http://192.0.2.1:8080');
  });

  test('a non-loopback http origin without the flag gets the mem0 hint with the field suffix', () => {
    const error = failure('http://192.0.2.1:8080', MEM0);
    expect(error.message).toBe(`${MEM0_HINT} Field: provider.endpoint.origin.`);
    expect(error.fieldPath).toBe('provider.endpoint.origin');
  });

  test('Generic HTTP over non-loopback http gets the plain message (there is no flag)', () => {
    const error = failure('http://search.example', GENERIC);
    expect(error.message).toBe(`${HTTPS_ONLY} Field: provider.baseUrl.`);
    expect(error.fieldPath).toBe('provider.baseUrl');
  });

  test.each(['http://127.0.0.2:8080', 'http://localhost.:8080', 'http://0.0.0.0:8080'])('%s is not loopback', (value) => {
    expect(failure(value, MEM0).message).toBe(`${MEM0_HINT} Field: provider.endpoint.origin.`);
  });

  test.each([
    'https://user@memory.example',
    'https://user:secret@memory.example',
    'https://:secret@memory.example',
    'https://memory.example/mem0',
    'https://memory.example/mem0/',
    'https://memory.example/?',
    'https://memory.example?x=1',
    'https://memory.example/#',
    'https://memory.example#frag',
  ])('rejects credentials, path, query or fragment: %s', (value) => {
    const error = failure(value, GENERIC);
    expect(error.message).toBe(`${NOT_ORIGIN} Field: provider.baseUrl.`);
    expect(error.message).not.toContain('secret');
  });

  test('credentials stay forbidden with allowInsecureHttp', () => {
    expect(failure('http://u:p@192.0.2.1', { ...MEM0, allowInsecureHttp: true }).message).toBe(`${NOT_ORIGIN} Field: provider.endpoint.origin.`);
  });

  test.each(['ftp://memory.example', 'ws://localhost:8080', 'file:///'])('other schemes: %s', (value) => {
    expect(failure(value, { ...MEM0, allowInsecureHttp: true }).message).toBe(`${HTTPS_ONLY} Field: provider.endpoint.origin.`);
  });

  test('an unparseable value (probe flags) gives Provider URL is invalid.', () => {
    expect(failure('not a url', GENERIC).message).toBe('Provider URL is invalid. Field: provider.baseUrl.');
  });

  test('the probe gets its own hint and no field suffix', () => {
    const error = failure('http://192.0.2.1:8080', { caller: 'probe', allowInsecureHttp: false });
    expect(error.message).toBe('Provider URL must use HTTPS or loopback HTTP; pass --allow-insecure-http to permit plain HTTP for this probe.');
    expect(error.fieldPath).toBeUndefined();
  });
});
