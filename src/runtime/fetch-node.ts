// Node.js routing: global fetch, never a proxy (docs/design/config.md §12: Node.js offers no proxy
// support usable here, so decideProxy refuses an applicable proxy before any request).
// NODE_TLS_REJECT_UNAUTHORIZED=0 would make Node's fetch accept any certificate (and print a
// warning on stderr, which a Hook must never do); Node's fetch has no per-request option to
// keep verification on, so an https request is refused instead, as Deno and the executable
// fail closed on an untrusted certificate. NODE_EXTRA_CA_CERTS is the supported way to trust a CA.
import process from 'node:process';
import { TLS_CHECKS_DISABLED_CODE } from './fetch-failure.ts';
import type { RuntimeFetch } from './fetch-types.ts';
import { ownEnv } from '../util/own-env.ts';

/** True when the environment turns Node's certificate verification off. */
function certificateChecksDisabled(): boolean {
  return ownEnv(process.env, 'NODE_TLS_REJECT_UNAUTHORIZED') === '0';
}

/**
 * Calls the global `fetch` directly.
 *
 * @throws {Error} For a `proxy` decision, which `decideProxy` never returns on Node.js, and
 *   for an `https:` URL while NODE_TLS_REJECT_UNAUTHORIZED is `0` (nothing is sent).
 * @see runtime-fetch.ts for the contract.
 */
export const fetchNode: RuntimeFetch = (url, init, decision) => {
  if (decision.mode !== 'direct') return Promise.reject(new Error('Node.js cannot route through a proxy.'));
  if (url.startsWith('https:') && certificateChecksDisabled()) {
    return Promise.reject(Object.assign(new Error('Certificate verification is disabled by NODE_TLS_REJECT_UNAUTHORIZED.'), { code: TLS_CHECKS_DISABLED_CODE }));
  }
  return fetch(url, init);
};
