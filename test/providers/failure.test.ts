// The failure classes and their hints (docs/design/providers.md §1.6).
import { describe, expect, test } from 'bun:test';
import { FAILURE_CLASSES, failureHint, failureLabel, operatorLabel } from '../../src/providers/failure.ts';
import { describeFailure, ProviderError } from '../../src/providers/provider-error.ts';
import { searchOperatorLine } from '../../src/search/run-search.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';

describe('failure classes', () => {
  test('fifteen ids, each with a one-line hint', () => {
    expect(FAILURE_CLASSES).toHaveLength(15);
    for (const id of FAILURE_CLASSES) {
      const hint = failureHint(id, { status: 500 });
      expect(hint.length).toBeGreaterThan(20);
      expect(hint).not.toContain('\n');
    }
  });

  test("the private-CA hint names the running runtime's option", () => {
    expect(failureHint('tls-untrusted-certificate', { runtime: 'bun' })).toContain('NODE_EXTRA_CA_CERTS');
    expect(failureHint('tls-untrusted-certificate', { runtime: 'node' })).toContain('NODE_EXTRA_CA_CERTS');
    const deno = failureHint('tls-untrusted-certificate', { runtime: 'deno' });
    expect(deno).toContain('--cert');
    expect(deno).toContain('DENO_CERT');
  });

  test('the label carries the status only for http-status and redirect', () => {
    expect(failureLabel({ id: 'http-status', status: 404 })).toBe('http-status 404');
    expect(failureLabel({ id: 'redirect', status: 0 })).toBe('redirect 0');
    expect(failureLabel({ id: 'timeout', status: 500 })).toBe('timeout');
  });
});

describe('describeFailure()', () => {
  test('a ProviderError: id, status and hint; 401 points at the credential', () => {
    const described = describeFailure(new ProviderError('http-status', { status: 401, cause: new Error(CANARY.credential) }));
    expect(described?.id).toBe('http-status');
    expect(described?.status).toBe(401);
    expect(described?.hint).toContain('credentialEnv');
    expectNoCanary(JSON.stringify(described));
  });

  test('proxy-failure names the variable, never a value', () => {
    const named = describeFailure(new ProviderError('network', { failureClass: 'proxy-failure', proxyVariable: 'https_proxy' }));
    expect(named?.hint).toContain('https_proxy');
    const smuggled = describeFailure(new ProviderError('network', { failureClass: 'proxy-failure', proxyVariable: `http://u:${CANARY.credential}@proxy` }));
    expectNoCanary(JSON.stringify(smuggled));
    expect(smuggled?.hint).toContain('HTTPS_PROXY');
  });

  test('the search operator line names the proxy variable that applied, never a value', () => {
    const line = (proxyVariable: string): string => searchOperatorLine(new ProviderError('network', { failureClass: 'proxy-failure', proxyVariable }));
    expect(line('https_proxy')).toBe('external-context: context_search failed: proxy-failure https_proxy');
    expect(line('HTTP_PROXY')).toBe('external-context: context_search failed: proxy-failure HTTP_PROXY');
    // Anything that is not one of the four names is left out.
    const smuggled = line(`http://u:${CANARY.credential}@proxy`);
    expect(smuggled).toBe('external-context: context_search failed: proxy-failure');
    expect(operatorLabel({ id: 'http-status', status: 404, hint: '' })).toBe('http-status 404');
  });

  test('anything that is not a request failure is undefined', () => {
    for (const value of [new Error(CANARY.query), 'x', undefined, { failureClass: 'made-up' }]) expect(describeFailure(value)).toBeUndefined();
  });
});
