// The runtime matrix as data (issue 26 §3): every point where the product's behaviour depends on
// the runtime it runs on (src/runtime/ holds the code that differs), and for each runtime row of
// test/support/launchers.ts whether a test must prove it there. A process-level test declares
// what it proves with `proves('<capability>', [<runtime ids>])`, written with literals so that
// test/support/runtime-capabilities.test.ts can read every declaration from the source and check
// that each capability has its proof on each row, and exactly one on each bundle (a bundle
// process costs ~0.1 s of CPU to start: one proof each, the rest on the executable).
import type { RuntimeId } from './launchers.ts';

/** Why a capability has no row on a runtime. */
export interface NotApplicable {
  readonly notApplicable: string;
}

/** One runtime-sensitive capability. */
export interface Capability {
  /** What a proof shows. */
  readonly claim: string;
  /** The source that differs per runtime. */
  readonly code: readonly string[];
  /** Per row: `proof` (a test must prove it there) or why it does not apply. */
  readonly rows: Readonly<Record<RuntimeId, 'proof' | NotApplicable>>;
}

const EVERYWHERE: Readonly<Record<RuntimeId, 'proof'>> = { executable: 'proof', 'node-bundle': 'proof', 'deno-bundle': 'proof' };

/** The capability table. */
export const CAPABILITIES = {
  'fetch-routing': {
    claim: 'A request goes where the per-target proxy decision says: absolute form and CONNECT through the proxy, NO_PROXY and loopback direct, whatever proxy variables the runtime reads itself.',
    code: ['src/runtime/fetch-bun.ts', 'src/runtime/fetch-deno.ts', 'src/runtime/fetch-node.ts', 'src/providers/outbound.ts'],
    rows: EVERYWHERE,
  },
  'proxy-refusal': {
    claim: 'Node.js refuses an applicable proxy at every entry point with the exact message and exit code, before any request.',
    code: ['src/providers/proxy.ts', 'src/runtime/proxy-runtime.ts'],
    rows: {
      executable: { notApplicable: 'Bun routes through a proxy (fetch-routing).' },
      'node-bundle': 'proof',
      'deno-bundle': { notApplicable: 'Deno routes through a proxy (fetch-routing).' },
    },
  },
  'tls-trust': {
    claim: "A CA given the runtime's way is trusted; an untrusted certificate, a CA not given, or NODE_TLS_REJECT_UNAUTHORIZED=0 fails closed with no runtime warning.",
    code: ['src/runtime/fetch-bun.ts', 'src/runtime/fetch-node.ts', 'src/runtime/trust-facts.ts'],
    rows: EVERYWHERE,
  },
  compression: {
    claim: 'A compressed body is decoded; a corrupt one fails quietly (nothing on stderr); a decompression bomb is response-too-large.',
    code: ['src/runtime/fetch-bun.ts', 'src/providers/response-body.ts'],
    rows: EVERYWHERE,
  },
  redirects: {
    claim: 'A 3xx is never followed: one request, and the answer is a redirect failure with its status.',
    code: ['src/providers/outbound.ts'],
    rows: EVERYWHERE,
  },
  'failure-classes': {
    claim: "Each loopback fault (refused, reset, DNS, proxy, TLS) gets its own class from the runtime's rejection, with a hint.",
    code: ['src/runtime/fetch-failure.ts', 'src/providers/outbound.ts'],
    rows: EVERYWHERE,
  },
  deadlines: {
    claim: 'A provider or proxy that never answers ends in the timeout class, after the fetch warm-up.',
    code: ['src/runtime/runtime-fetch.ts', 'src/util/with-deadline.ts'],
    rows: EVERYWHERE,
  },
  'node-fetch-warmup': {
    claim: "Under Node.js the deadline is armed after undici's start-up and fires under constant garbage collection.",
    code: ['src/runtime/runtime-fetch.ts'],
    rows: {
      executable: { notApplicable: 'Bun has no lazy fetch start-up.' },
      'node-bundle': 'proof',
      'deno-bundle': { notApplicable: 'Deno has no lazy fetch start-up.' },
    },
  },
  'outbound-end-to-end': {
    claim: 'The shipped build sends a search through the outbound code and prints its result: the end-to-end row behind the in-process outbound batch.',
    code: ['src/providers/outbound.ts', 'src/runtime/runtime-fetch.ts'],
    rows: EVERYWHERE,
  },
  'stdin-stdout': {
    claim: 'serve speaks MCP over stdio; stdout carries only the protocol and stderr stays empty.',
    code: ['src/runtime/stdio-flags.ts'],
    rows: EVERYWHERE,
  },
  'exit-codes': {
    claim: 'The process exits with the documented code (0, 1 or 2: --version, a failed search, an unknown command, a broken configuration) and writes only its own lines.',
    code: ['src/main.ts'],
    rows: EVERYWHERE,
  },
  'file-open': {
    claim: "An administrator's file (TOML settings) is opened, read and parsed, and a syntax error is named by line without its text.",
    code: ['src/config/read-regular-file.ts'],
    rows: EVERYWHERE,
  },
  permissions: {
    claim: 'A missing Deno permission gives the one-line message naming it.',
    code: ['src/runtime/permissions-deno.ts'],
    rows: {
      executable: { notApplicable: 'Bun grants everything.' },
      'node-bundle': { notApplicable: 'Node.js grants everything.' },
      'deno-bundle': 'proof',
    },
  },
  'http-listen': {
    claim: "serve --http and corpus serve parse the runtime server's requests the same: malformed, missing and repeated Host, JSON-RPC batches.",
    code: ['src/runtime/listen-bun.ts', 'src/runtime/listen-node.ts', 'src/runtime/listen-deno.ts'],
    rows: EVERYWHERE,
  },
  'http-read-deadline': {
    claim: "A request body that never finishes gets 408 and frees its slot; SIGTERM ends the server's stalled reads and exits 0.",
    code: ['src/runtime/listen-bun.ts', 'src/runtime/listen-node.ts', 'src/runtime/listen-deno.ts'],
    rows: EVERYWHERE,
  },
} as const satisfies Record<string, Capability>;

/** A capability id. */
export type CapabilityId = keyof typeof CAPABILITIES;

/**
 * Declares that the calling test proves `capability` on `runtimes`. Write both arguments as
 * literals: the checker reads them from the source.
 *
 * @returns A function giving the test-name suffix for one of the declared rows
 *   (`[proves tls-trust on deno-bundle]`); it throws for a row that was not declared.
 */
export function proves(capability: CapabilityId, runtimes: readonly RuntimeId[]): (runtime: RuntimeId) => string {
  return (runtime) => {
    if (!runtimes.includes(runtime)) throw new Error(`${capability} is not declared on ${runtime}.`);
    return `[proves ${capability} on ${runtime}]`;
  };
}
