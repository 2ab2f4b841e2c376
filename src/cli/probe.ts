// `external-context probe`: checks read-only that a Mem0 preset matches the deployed service
// (docs/design/probe.md). Validation first (exit 2), then the requests, the report and the verdict's exit
// code. Never imports the MCP SDK.
import { ConfigError } from '../config/config-error.ts';
import { currentProxyRuntime } from '../runtime/proxy-runtime.ts';
import { missingPermission, permissionMessage } from '../runtime/permissions.ts';
import { versionLine } from '../version.ts';
import { EXIT_FAILURE, EXIT_USAGE } from './exit-codes.ts';
import { printHelp, wantsHelp } from './help.ts';
import { type Io, writeError } from './io.ts';
import { UsageError } from './usage-error.ts';
import { configTarget } from '../probe/config-target.ts';
import { flagTarget } from './probe-flag-target.ts';
import { parseProbeArgs } from './parse-probe-args.ts';
import type { ProbeTarget } from '../probe/probe-target.ts';
import { renderJsonReport } from '../probe/render-json.ts';
import { renderTextReport } from '../probe/render-text.ts';
import { runProbe } from '../probe/run-probe.ts';
import { VERDICT_EXIT_CODES } from '../probe/verdict.ts';

/** `probe --help`. */
export const help = `${versionLine()}
Check, read-only, that a Mem0 preset matches the deployed service: reads the declared schema,
runs one search through the real adapter, tests the unknown-field policy and, for operator-
deployed presets, compares scope placements. Never writes and never prints the credential.

USAGE
  external-context probe --preset <id> --origin <origin> [--base-path <path>]
      [--user-id <v>] [--agent-id <v>] [--app-id <v>]
      [--credential-env <NAME>] [--allow-insecure-http] [--json]
  external-context probe --config <abs path> [--json]

OPTIONS
  --preset <id>            mem0-platform-v3, mem0-server-rest-2026-08 or polardb-mysql-2026-08.
                           (required without --config)
  --origin <origin>        Provider origin, e.g. https://mem0.example.com (no path).
                           (required without --config)
  --base-path <path>       Path prefix before the preset's paths. (default: none)
  --user-id <v>            Scope userId, 1 to 256 characters after trimming. (default: none)
  --agent-id <v>           Scope agentId, as above. (default: none)
  --app-id <v>             Scope appId, as above. (default: none)
  --credential-env <NAME>  Variable that holds the credential. (default: MEM0_API_KEY)
  --allow-insecure-http    Permit plain HTTP to a non-loopback origin. (default: off)
  --config <abs path>      Take all of the above from a version 1 or 2 configuration with a
                           "mem0" (or legacy "mem0-platform-v3") provider; combines only
                           with --json. (default: none)
  --json                   Print one JSON object instead of the text report. (default: text)
  -h, --help               Show this help.
  Each value flag takes "--name value" or "--name=value", as every other command does.

REQUESTS
  GET <origin><base path>/openapi.json without the credential, then at most five searches
  with the query "deployment policy" and limit 5, all within one 30000 ms timeout.

ENVIRONMENT
  MEM0_API_KEY (or the --credential-env variable)   The provider credential.
  QWEN_EXTERNAL_CONTEXT_CONFIG   Must name the same file as --config when both are set.
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   Proxy for the provider (loopback is never proxied;
                                      refused on Node.js).

EXIT CODES
  0  managed-contract, already-dual-placement, dual-placement-safe, -unsafe or -divergent
  1  unreachable (with the failure class and a hint), unauthorized (HTTP 401/403),
     preset-mismatch or empty-corpus
  2  invalid arguments, configuration, credential or proxy, or an unexpected failure

EXAMPLES
  MEM0_API_KEY=... external-context probe --preset polardb-mysql-2026-08 \\
      --origin http://127.0.0.1:8080 --user-id alice
  external-context probe --config /etc/external-context/mem0.json --json
`;

/** Stderr text of an unexpected exception after validation (docs/design/probe.md §3). */
const PROBE_FAILED = 'External context probe failed.';

/**
 * Runs `probe`.
 *
 * @param args Arguments after `probe`.
 * @param io Streams and environment; the credential comes from `io.env`.
 * @returns 0 or 1 by verdict (docs/design/probe.md §3); 2 for every validation failure and any unexpected
 *   exception, after one stderr line and nothing on stdout.
 * @see docs/design/probe.md
 */
export async function run(args: string[], io: Io): Promise<number> {
  if (wantsHelp(args)) return printHelp(io, help);
  let target: ProbeTarget;
  let json: boolean;
  try {
    const parsed = parseProbeArgs(args);
    json = parsed.json;
    const missing = await missingPermission([{ name: 'read' }, { name: 'env' }, { name: 'net' }]);
    if (missing !== undefined) {
      // docs/design/README.md, "Deno permissions": exit 1 for every command.
      writeError(io, permissionMessage(missing));
      return EXIT_FAILURE;
    }
    const runtime = currentProxyRuntime();
    target = parsed.config === undefined ? flagTarget(parsed, io.env, runtime) : await configTarget(parsed.config, io.env, runtime);
  } catch (error) {
    if (error instanceof UsageError) writeError(io, error.stderrText());
    else if (error instanceof ConfigError) writeError(io, error.message);
    else writeError(io, PROBE_FAILED);
    return EXIT_USAGE;
  }
  let output: string;
  let exitCode: number;
  try {
    const report = await runProbe(target);
    exitCode = VERDICT_EXIT_CODES[report.verdict];
    output = json ? renderJsonReport(report, exitCode) : renderTextReport(report);
  } catch {
    // Never the message, stack or cause: they could carry a URL or upstream text (docs/design/style.md).
    writeError(io, PROBE_FAILED);
    return EXIT_USAGE;
  }
  io.stdout.write(output);
  return exitCode;
}
