// observedJwksFetch() and createObservers() (docs/design/remote.md §1.4a, §1.12): each key-set
// fetch reports its result to /readyz and to external_context_jwks_fetches_total, and passes the
// answer or the error through unchanged.
import { describe, expect, test } from 'bun:test';
import { createObservers, observedJwksFetch } from '../../src/cli/serve-http-observers.ts';
import { JwksUnavailableError } from '../../src/mcp/http/jwks-fetch.ts';

describe('observedJwksFetch()', () => {
  test('counts ok and failure classes, marks /readyz not ready after a failure and ready after a success', async () => {
    const observers = await createObservers(true, () => 0);
    let fail = true;
    const fetch = observedJwksFetch(async () => {
      if (fail) throw new JwksUnavailableError('connection-refused');
      return new Response('{"keys":[]}');
    }, observers);
    await expect(fetch('http://127.0.0.1:1/jwks.json', {})).rejects.toBeInstanceOf(JwksUnavailableError);
    expect(observers.readiness.notReadyReason()).toBe('jwks-connection-refused');
    fail = false;
    expect(await (await fetch('http://127.0.0.1:1/jwks.json', {})).text()).toBe('{"keys":[]}');
    expect(observers.readiness.notReadyReason()).toBeUndefined();
    const text = observers.metrics?.registry.render() ?? '';
    expect(text).toContain('external_context_jwks_fetches_total{result="connection-refused"} 1');
    expect(text).toContain('external_context_jwks_fetches_total{result="ok"} 1');
    expect(text).not.toContain('127.0.0.1:1');
  });

  test('createObservers(false) builds no metrics', async () => {
    expect((await createObservers(false, () => 0)).metrics).toBeUndefined();
  });
});
