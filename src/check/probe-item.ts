// `check --probe` (docs/design/config.md §11): the preset probe's read-only requests
// (docs/design/probe.md §2) for the configured Mem0 preset, reported as one checklist item.
import { configTarget } from '../probe/config-target.ts';
import { runProbe } from '../probe/run-probe.ts';
import { VERDICT_EXIT_CODES, VERDICT_LINES } from '../probe/verdict.ts';
import { ConfigError } from '../config/config-error.ts';
import { failureLabel } from '../providers/failure.ts';
import { currentProxyRuntime } from '../runtime/proxy-runtime.ts';
import type { OpenBinding } from '../search/open-binding.ts';
import { type CheckItem, item } from './check-item.ts';

/** Hints for the negative verdicts. */
const VERDICT_HINTS: Readonly<Record<string, string>> = {
  'preset-mismatch': 'Run external-context probe --config <file> for the full report: check that the service is up, the key is right and the preset matches the deployment.',
  'empty-corpus': 'The scope has no memories yet: add one, or probe with a scope that has memories.',
};

/**
 * The `probe` item.
 *
 * @param opened The loaded binding, or undefined when the configuration did not load.
 * @param configPath The resolved configuration path.
 * @param env The environment (credential and proxy variables).
 * @returns `ok` for a verdict with exit code 0; `fail` for the others (`unreachable` and
 *   `unauthorized` with the failure class and its hint); `warn` for a Generic HTTP
 *   configuration; `fail` when the configuration did not load.
 * @see docs/design/probe.md §3
 */
export async function probeItem(opened: OpenBinding | undefined, configPath: string | undefined, env: Readonly<Record<string, string | undefined>>): Promise<CheckItem> {
  if (opened === undefined || configPath === undefined) {
    return item('probe', 'fail', 'Not run: the configuration did not load.', 'Fix the failed items above, then run check --probe again.');
  }
  if (opened.binding.provider.type === 'generic-http-search-v1') {
    return item('probe', 'warn', 'Not run: the probe checks Mem0 presets, and this configuration uses generic-http-search-v1.', 'Leave out --probe for this configuration.');
  }
  try {
    const report = await runProbe(await configTarget(configPath, env, currentProxyRuntime()));
    const ok = VERDICT_EXIT_CODES[report.verdict] === 0;
    if (ok) return item('probe', 'ok', `${report.verdict}: ${VERDICT_LINES[report.verdict]}`);
    // unreachable and unauthorized carry the baseline's failure class and its hint.
    const failure = report.baseline.ok ? undefined : report.baseline.failure;
    if ((report.verdict === 'unreachable' || report.verdict === 'unauthorized') && failure !== undefined) {
      return item('probe', 'fail', `${report.verdict} (${failureLabel(failure)}): ${VERDICT_LINES[report.verdict]}`, failure.hint);
    }
    return item('probe', 'fail', `${report.verdict}: ${VERDICT_LINES[report.verdict]}`, VERDICT_HINTS[report.verdict]);
  } catch (error) {
    // Never the message of an unknown error (docs/design/style.md); a ConfigError is ours.
    return item('probe', 'fail', error instanceof ConfigError ? error.message : 'The probe failed unexpectedly.', 'Run external-context probe --config <file> for the full report.');
  }
}
