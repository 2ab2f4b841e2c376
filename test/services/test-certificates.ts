// A throw-away certificate authority and server certificates, generated at test time with the
// `openssl` command-line tool, for HTTPS providers on loopback (issue 11, "Real proxy and real
// TLS on loopback"). Nothing is committed: every run makes fresh keys in a temporary directory.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '../support/temp-dir.ts';
import { hostToolTier } from '../support/ci-tools.ts';
import type { ToolTier } from '../support/tool-tier.ts';

/** The names every server certificate here is valid for. */
export const CERTIFICATE_NAMES = ['localhost', 'context.test', '127.0.0.1', '::1'] as const;

/** PEM key and certificate of one TLS server. */
export interface ServerIdentity {
  /** PEM private key (EC P-256). */
  readonly key: string;
  /** PEM certificate chain presented by the server (leaf only). */
  readonly cert: string;
}

/** A generated test CA and two server identities. */
export interface TestCertificates {
  /** Absolute path of the CA certificate (PEM), for `NODE_EXTRA_CA_CERTS` and `DENO_CERT`. */
  readonly caCertPath: string;
  /** The CA certificate (PEM). */
  readonly caCert: string;
  /** A server certificate signed by the CA, valid for {@link CERTIFICATE_NAMES}. */
  readonly trusted: ServerIdentity;
  /** A self-signed server certificate for the same names, which no runtime trusts. */
  readonly untrusted: ServerIdentity;
  /** A server certificate signed by the CA for `other.test` only: a host-name mismatch on `localhost`. */
  readonly mismatched: ServerIdentity;
  /** Deletes the directory holding the keys. */
  remove(): Promise<void>;
}

/**
 * Whether the `openssl` command-line tool can be run.
 *
 * @returns True when `openssl version` exits 0.
 */
export function opensslAvailable(): boolean {
  const result = spawnSync('openssl', ['version'], { stdio: 'ignore' });
  return result.status === 0;
}

/**
 * The tool tier of the tests that need test certificates (test/support/tool-tier.ts): pass it
 * to `registerToolGate()` and skip the TLS tests when `missing` is set, so a missing `openssl`
 * is a visible skip, and a failure under `CI=true`.
 *
 * @param name The tier's name, for the gate's test title.
 */
export function opensslTier(name: string): ToolTier {
  return hostToolTier('tls', name);
}

function openssl(dir: string, args: readonly string[]): void {
  const result = spawnSync('openssl', [...args], { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr}`);
}

const SUBJECT_ALT_NAME = `subjectAltName=${CERTIFICATE_NAMES.map((name) => (/^[\d.:]+$/.test(name) ? `IP:${name}` : `DNS:${name}`)).join(',')}`;
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/**
 * Generates a CA, a server certificate it signs, an unrelated self-signed server
 * certificate, and a CA-signed certificate for another name, all with EC P-256 keys valid
 * for two days.
 *
 * @returns Paths and PEM texts; call `remove()` when done (or `removeTempDirs()`).
 * @throws {Error} If `openssl` is missing or fails.
 */
export async function createTestCertificates(): Promise<TestCertificates> {
  const temp: TempDir = await makeTempDir('ec-tls-');
  const dir = temp.path;
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=external-context test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  openssl(dir, ['req', '-new', ...EC_KEY, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  writeFileSync(join(dir, 'server.ext'), `${SUBJECT_ALT_NAME}\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n`);
  openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-sha256', '-extfile', 'server.ext']);
  openssl(dir, ['req', '-x509', ...EC_KEY, '-keyout', 'untrusted.key', '-out', 'untrusted.crt', '-days', '2', '-subj', '/CN=localhost', '-addext', SUBJECT_ALT_NAME]);
  openssl(dir, ['req', '-new', ...EC_KEY, '-keyout', 'other.key', '-out', 'other.csr', '-subj', '/CN=other.test']);
  writeFileSync(join(dir, 'other.ext'), 'subjectAltName=DNS:other.test\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n');
  openssl(dir, ['x509', '-req', '-in', 'other.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'other.crt', '-days', '2', '-sha256', '-extfile', 'other.ext']);
  const read = (name: string): string => readFileSync(join(dir, name), 'utf8');
  return {
    caCertPath: join(dir, 'ca.crt'),
    caCert: read('ca.crt'),
    trusted: { key: read('server.key'), cert: read('server.crt') },
    untrusted: { key: read('untrusted.key'), cert: read('untrusted.crt') },
    mismatched: { key: read('other.key'), cert: read('other.crt') },
    remove: () => temp.remove(),
  };
}
