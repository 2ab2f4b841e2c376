// The facts about the executing runtime that the proxy decision depends on (docs/design/config.md §12):
// read here, in runtime/, so providers/proxy.ts stays pure.
import process from 'node:process';
import { RUNTIME, type RuntimeName } from './runtime.ts';

/** The facts about the executing runtime that the decision depends on. */
export interface ProxyRuntime {
  readonly name: RuntimeName;
  /** Node.js `process.execArgv`, searched for `--use-env-proxy`; ignored elsewhere. */
  readonly execArgv: readonly string[];
}

/**
 * The executing runtime, as `decideProxy` needs it.
 *
 * @returns The detected runtime name and `process.execArgv` (empty where it does not exist).
 * @see docs/design/config.md §12
 */
export function currentProxyRuntime(): ProxyRuntime {
  return { name: RUNTIME, execArgv: Array.isArray(process.execArgv) ? process.execArgv : [] };
}
