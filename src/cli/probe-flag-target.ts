// The probe target from command-line flags, validated in the order of docs/design/probe.md §1.1: preset,
// origin, credential variable, credential, scope, origin policy, basePath, proxy.
import { ConfigError } from '../config/config-error.ts';
import { isUsableCredential } from '../config/credential.ts';
import { isPresetId, PRESET_IDS, PRESETS, RETIRED_PRESETS } from '../config/presets.ts';
import type { ProxyEnvironment } from '../providers/proxy.ts';
import type { ProxyRuntime } from '../runtime/proxy-runtime.ts';
import { UsageError } from './usage-error.ts';
import { checkProbeScope } from '../probe/check-probe-scope.ts';
import type { ProbeArgs } from './parse-probe-args.ts';
import { bindProbeTarget, type ProbeTarget } from '../probe/probe-target.ts';
import { ownEnv } from '../util/own-env.ts';

/** Credential variable read when `--credential-env` is not given (docs/design/probe.md §1). */
export const DEFAULT_CREDENTIAL_ENV = 'MEM0_API_KEY';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/u;
const PRESET_MESSAGE = `--preset must be one of: ${PRESET_IDS.join(', ')}`;

function verbatim(message: string): UsageError {
  return new UsageError(message, 'probe', { verbatim: true });
}

/**
 * Validates the flag form and builds the target. Makes no request.
 *
 * @param args Parsed flags (without `--config`).
 * @param env The process environment: the credential variable and the proxy variables.
 * @param runtime The runtime facts of the proxy decision.
 * @returns The validated target.
 * @throws {UsageError} (verbatim) The `--preset` (with the retired-id suffix) and `--origin`
 *   messages and `--credential-env must be an environment variable name.`
 * @throws {ConfigError} `<NAME> must hold the provider credential.`, the scope messages,
 *   the origin policy (probe hint), basePath and proxy messages.
 * @see docs/design/probe.md §1.1
 */
export function flagTarget(args: ProbeArgs, env: ProxyEnvironment, runtime: ProxyRuntime): ProbeTarget {
  const presetId = args.preset;
  if (!isPresetId(presetId)) {
    const replacement = presetId !== undefined && Object.hasOwn(RETIRED_PRESETS, presetId) ? RETIRED_PRESETS[presetId] : undefined;
    throw verbatim(replacement === undefined ? PRESET_MESSAGE : `${PRESET_MESSAGE} ("${presetId}" is retired; use "${replacement}")`);
  }
  if (args.origin === undefined) throw verbatim('--origin is required.');
  const credentialEnv = args.credentialEnv ?? DEFAULT_CREDENTIAL_ENV;
  if (!ENV_NAME.test(credentialEnv)) throw verbatim('--credential-env must be an environment variable name.');
  // Own-property lookup: inherited names such as `toString` are never found (docs/design/config.md §7.1).
  const credential = ownEnv(env, credentialEnv);
  if (!isUsableCredential(credential)) throw new ConfigError(`${credentialEnv} must hold the provider credential.`);
  const preset = PRESETS[presetId];
  const scope = checkProbeScope(preset, { userId: args.userId, agentId: args.agentId, appId: args.appId });
  return bindProbeTarget(preset, { origin: args.origin, basePath: args.basePath ?? '', allowInsecureHttp: args.allowInsecureHttp, caller: 'probe' }, scope, credential, { env, runtime });
}
