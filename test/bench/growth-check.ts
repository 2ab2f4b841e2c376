// What every "how cost grows" part shares (issue 18 item 5): the sizes it is given, and a growth
// check, the measured ratio between two sizes against the bound its expected complexity allows.

/** What to measure; every list and count is bounded by the caller. */
export interface ScalingOptions {
  /** Corpus sizes for query latency, in chunks. */
  readonly corpusChunks: readonly number[];
  /** Index input for throughput and peak RSS, in MiB (also run at an eighth of it). */
  readonly indexMiB: number;
  /** Concurrent `serve --http` clients, one point each. */
  readonly httpClients: readonly number[];
  /** Sequential `context_search` calls to one stdio server. */
  readonly stdioCalls: number;
  /** Servers for gateway discovery (one gateway holds at most 8; more run as two gateways). */
  readonly gatewayServers: number;
  readonly gatewayToolsPerServer: number;
  readonly log: (line: string) => void;
}

/** A growth check: the measured ratio against the bound its complexity allows. */
export interface GrowthCheck {
  /** The expected complexity and the bound it implies, in words. */
  readonly expectation: string;
  /** The figures the ratio was taken from. */
  readonly measured: string;
  readonly met: boolean;
}

/** Prints checks as `PASS|MISS  expectation; measured …`. */
export function printChecks(checks: readonly GrowthCheck[]): void {
  for (const check of checks) console.log(`  ${check.met ? 'PASS' : 'MISS'}  ${check.expectation}; measured ${check.measured}`);
}
