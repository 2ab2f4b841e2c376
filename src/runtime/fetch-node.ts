// Node.js routing: global fetch, never a proxy (config.md §12: Node.js offers no proxy
// support usable here, so decideProxy refuses an applicable proxy before any request).
import type { RuntimeFetch } from './runtime-fetch.ts';

/**
 * Calls the global `fetch` directly.
 *
 * @throws {Error} For a `proxy` decision, which `decideProxy` never returns on Node.js.
 * @see runtime-fetch.ts for the contract.
 */
export const fetchNode: RuntimeFetch = (url, init, decision) => {
  if (decision.mode !== 'direct') return Promise.reject(new Error('Node.js cannot route through a proxy.'));
  return fetch(url, init);
};
