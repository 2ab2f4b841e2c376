// The lines a reload and the metrics listener write on stderr (docs/design/remote.md §1.10, §1.13):
// configuration values only (the file's path, the metrics URL), never a credential.
import { locateConfig, type ConfigFlag } from '../config/locate.ts';
import type { LogFormat } from '../mcp/http/request-log.ts';

/**
 * The configuration path a reload re-reads, as the operator gave it.
 *
 * @returns The path, or `the configuration file` when it cannot be located (it could at startup).
 */
export function configPathOf(flag: ConfigFlag, env: Readonly<Record<string, string | undefined>>): string {
  try {
    return locateConfig(flag, env);
  } catch {
    return 'the configuration file';
  }
}

/**
 * The operator line of a failed reload (without the `[external-context] ` prefix).
 *
 * @param cause The message `check` would print for the same file (a ConfigError's message).
 * @returns `Reload of <path> failed; the previous configuration keeps serving. <cause>`
 * @see docs/design/remote.md §1.13
 */
export function reloadFailedMessage(flag: ConfigFlag, env: Readonly<Record<string, string | undefined>>, cause: string): string {
  return `Reload of ${configPathOf(flag, env)} failed; the previous configuration keeps serving. ${cause}`;
}

/**
 * The log line of a successful reload: JSON `{"time","event":"reloaded","config"}` or text
 * `<time> reloaded config=<path>`; undefined for `none`.
 */
export function formatReloadLine(time: string, path: string, format: LogFormat): string | undefined {
  if (format === 'none') return undefined;
  if (format === 'json') return JSON.stringify({ time, event: 'reloaded', config: path });
  return `${time} reloaded config=${path}`;
}

/**
 * The log line that announces the metrics listener: JSON `{"time","event":"metrics","address"}`
 * or text `<time> metrics address=<url>`; undefined for `none`.
 */
export function formatMetricsLine(time: string, url: string, format: LogFormat): string | undefined {
  if (format === 'none') return undefined;
  if (format === 'json') return JSON.stringify({ time, event: 'metrics', address: `${url}/metrics` });
  return `${time} metrics address=${url}/metrics`;
}
