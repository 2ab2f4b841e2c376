// classifyFetchRejection (docs/design/providers.md §1.6) on the error shapes each runtime was seen to
// produce against real loopback faults (recorded from Bun 1.4, Node.js 20 and Deno 2.9); the real
// faults themselves run in test/e2e/failure-classes.test.ts.
import { describe, expect, test } from 'bun:test';
import { classifyFetchRejection } from '../../src/runtime/fetch-failure.ts';

const bun = (code: string): Error => Object.assign(new TypeError(`${code}: fetching "https://localhost:1/certificate"`), { code });
const node = (code: string): Error => new TypeError('fetch failed', { cause: Object.assign(new Error(`${code} x`), { code }) });
const deno = (message: string): Error => new TypeError('fetch failed', { cause: new Error(message) });

describe('classifyFetchRejection()', () => {
  test.each<[string, Error, string]>([
    ['Bun refused', bun('ECONNREFUSED'), 'connection-refused'],
    ['Bun self-signed', bun('DEPTH_ZERO_SELF_SIGNED_CERT'), 'tls-untrusted-certificate'],
    ['Bun alt name', bun('ERR_TLS_CERT_ALTNAME_INVALID'), 'tls-hostname-mismatch'],
    ['Bun reset', bun('ECONNRESET'), 'connection-reset'],
    ['Bun DNS', bun('ENOTFOUND'), 'dns-failure'],
    ['Node refused', node('ECONNREFUSED'), 'connection-refused'],
    ['Node unknown issuer', node('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), 'tls-untrusted-certificate'],
    ['Node self-signed in chain', node('SELF_SIGNED_CERT_IN_CHAIN'), 'tls-untrusted-certificate'],
    ['Node alt name', node('ERR_TLS_CERT_ALTNAME_INVALID'), 'tls-hostname-mismatch'],
    ['Node expired', node('CERT_HAS_EXPIRED'), 'tls-failure'],
    ['Node socket closed', node('UND_ERR_SOCKET'), 'connection-reset'],
    ['Node DNS', node('ENOTFOUND'), 'dns-failure'],
    ['Node TLS checks off', node('EC_TLS_CHECKS_DISABLED'), 'tls-failure'],
    ['Deno refused', deno('error sending request for url (http://127.0.0.1:1/): client error (Connect): tcp connect error: Connection refused (os error 111)'), 'connection-refused'],
    ['Deno unknown issuer', deno('error sending request for url (https://localhost:1/): client error (Connect): invalid peer certificate: UnknownIssuer'), 'tls-untrusted-certificate'],
    ['Deno self-signed', deno('client error (Connect): invalid peer certificate: Other(OtherError(CaUsedAsEndEntity))'), 'tls-untrusted-certificate'],
    ['Deno name', deno('client error (Connect): invalid peer certificate: certificate not valid for name "localhost"; certificate is only valid for DnsName("other.test")'), 'tls-hostname-mismatch'],
    ['Deno expired', deno('client error (Connect): invalid peer certificate: Expired'), 'tls-failure'],
    ['Deno reset', deno('Connection reset by peer (os error 104)'), 'connection-reset'],
    ['Deno DNS', deno('error sending request for url (http://nowhere.invalid/): client error (Connect): dns error: failed to lookup address information: Name or service not known'), 'dns-failure'],
  ])('%s', (_label, error, expected) => {
    expect(classifyFetchRejection(error) as string).toBe(expected);
  });

  test('a URL in the message never decides the class', () => {
    expect(
      classifyFetchRejection(
        deno('error sending request for url (https://certificate.example/Connection%20refused/dns error): client error (SendRequest): connection closed before message completed'),
      ),
    ).toBe('connection-reset');
  });

  test('anything unrecognised is connection-reset', () => {
    for (const value of [new Error('weird'), 'text', undefined, null, 42, { code: 7 }]) expect(classifyFetchRejection(value)).toBe('connection-reset');
  });
});
