// Scope from probe flags: trimmed 1…256 code points, then checked against the preset with the
// docs/design/config.md §6 step 2 messages, without the `Field:` suffix (docs/design/probe.md §1.1).
import { ConfigError } from '../config/config-error.ts';
import { SCOPE_KEYS, type Preset, type ScopeKey } from '../config/presets.ts';
import { codePointCount } from '../util/code-points.ts';

/** The flag each scope field comes from, for the scope value message. */
export const SCOPE_FLAGS = { userId: '--user-id', agentId: '--agent-id', appId: '--app-id' } as const;

/** Longest scope value after trimming, in Unicode code points (docs/design/config.md §4.2). */
export const MAX_SCOPE_CODE_POINTS = 256;

const PREFIX = 'External context Mem0 scope is invalid:';

/**
 * Trims the scope flag values and checks them against the preset.
 *
 * Value checks run first, in the order `--user-id`, `--agent-id`, `--app-id`; then, in the
 * order `userId`, `agentId`, `appId`, a required key must be present and a key the preset
 * never uses must be absent.
 *
 * @param preset The claimed preset.
 * @param raw The untrimmed flag values by scope key.
 * @returns The trimmed values of the keys that were given.
 * @throws {ConfigError} `External context Mem0 scope is invalid: "<flag>" must contain 1 to
 *   256 characters after trimming.`, `… preset "<id>" requires "<key>".` or `… preset "<id>"
 *   does not use "<key>", so it must be omitted.`
 * @see docs/design/probe.md §1.1; docs/design/config.md §6 step 2
 */
export function checkProbeScope(preset: Preset, raw: Readonly<Record<ScopeKey, string | undefined>>): Partial<Record<ScopeKey, string>> {
  const scope: Partial<Record<ScopeKey, string>> = {};
  for (const key of SCOPE_KEYS) {
    const value = raw[key];
    if (value === undefined) continue;
    const trimmed = value.trim();
    const length = codePointCount(trimmed);
    if (length < 1 || length > MAX_SCOPE_CODE_POINTS) {
      throw new ConfigError(`${PREFIX} "${SCOPE_FLAGS[key]}" must contain 1 to 256 characters after trimming.`);
    }
    scope[key] = trimmed;
  }
  for (const key of SCOPE_KEYS) {
    const rule = preset.scope[key];
    const present = scope[key] !== undefined;
    if (rule.requirement === 'required' && !present) throw new ConfigError(`${PREFIX} preset "${preset.id}" requires "${key}".`);
    if (rule.requirement === 'absent' && present) {
      throw new ConfigError(`${PREFIX} preset "${preset.id}" does not use "${key}", so it must be omitted.`);
    }
  }
  return scope;
}
