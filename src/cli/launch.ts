// `external-context launch --profile <abs path>`: the managed launcher. It takes no other
// argument, reads the administrator's launch profile and starts Qwen Code with a fixed
// argument vector, an allow-listed environment and the repository as working directory
// (docs/design/examples.md §8).
import { LaunchProfileError } from '../launch/launch-profile-error.ts';
import { loadLaunchPlan, type ProfileFlag } from '../launch/launch-plan.ts';
import { runQwen } from '../launch/run-qwen.ts';
import { missingPermission, permissionMessage } from '../runtime/permissions.ts';
import { versionLine } from '../version.ts';
import { EXIT_FAILURE } from './exit-codes.ts';
import { printHelp, wantsHelp } from './help.ts';
import { type Io, writeError } from './io.ts';
import { UsageError } from './usage-error.ts';

/** `launch --help`. */
export const help = `${versionLine()}
Start Qwen Code from an administrator-owned launch profile, so the user cannot rebind the MCP
server, the corpus or the permissions. The profile fixes the Qwen Code executable, the
repository it runs in, the --mcp-config file, the system settings file, Qwen's arguments and
every environment variable the child sees.

USAGE
  external-context launch --profile <abs path>

  No other argument is accepted, not even after "--": the command line cannot add or drop a
  managed flag. Qwen Code runs with inherited stdio; SIGINT, SIGTERM and SIGHUP are forwarded.

OPTIONS
  --profile <abs path>   Launch profile (required): a regular file of at most 65536 bytes,
                         version 1 (fields: version, qwenExecutable, repository, mcpConfig,
                         systemSettings, qwenArgs, env, passEnv, credentialEnv).

FILE PERMISSIONS (POSIX)
  The profile, qwenExecutable, mcpConfig and systemSettings must not be writable by other
  users: each file and every folder above it (on the path as given and after symlinks) is
  owned by root or by the user running launch and has no group- or world-write bit; a folder
  with the sticky bit (such as /tmp) may have them. Fix with chown root and chmod go-w. The
  repository is the user's own working tree and is not checked.
  -h, --help             Show this help.

ENVIRONMENT
  Only the variables the profile names reach Qwen Code: its fixed "env" entries, the
  "passEnv" variables that are set and non-empty, the "credentialEnv" variables (each must be
  set, non-blank, free of control characters and not a \${NAME} placeholder; never printed)
  and QWEN_CODE_SYSTEM_SETTINGS_PATH=<systemSettings>.

RUNTIMES
  The executable and Node.js as they are; Deno adds --allow-run and --allow-sys (to read the
  running user's id for the owner rule).

EXIT CODES
  n      Qwen Code's own exit code, or 128 + the signal number when a signal ended it
  1      the launch profile is invalid or unreadable, a credential is unavailable, or Qwen
         Code could not be started (one stderr line "[external-context] <message>")
  2      usage error (any argument besides --profile <path>)

EXAMPLES
  external-context launch --profile /etc/external-context/launch-profile-search.json
`;

const COMMAND = 'launch';
const NOT_STARTED = 'Qwen Code could not be started.';

/**
 * Runs `launch`.
 *
 * @param args Arguments after `launch`.
 * @param io Streams and environment (the child inherits the process's real stdio).
 * @returns Qwen Code's exit code (128 + signal number when a signal ended it), or 1 when the
 *   profile fails or Qwen Code cannot be started.
 * @throws {UsageError} On any argument other than one `--profile <path>`, or without it.
 * @see docs/design/examples.md §8
 */
export async function run(args: string[], io: Io): Promise<number> {
  if (wantsHelp(args)) return printHelp(io, help);
  const flag = parseProfileFlag(args);
  // `sys` (uid): the owner rule of docs/design/examples.md §8.3 compares owners with the running user.
  const missing = await missingPermission([{ name: 'read' }, { name: 'env' }, { name: 'run' }, { name: 'sys', target: 'uid' }]);
  if (missing !== undefined) {
    writeError(io, permissionMessage(missing));
    return EXIT_FAILURE;
  }
  let plan;
  try {
    plan = await loadLaunchPlan(flag, io.env);
  } catch (error) {
    if (!(error instanceof LaunchProfileError)) throw error;
    writeError(io, error.message);
    return EXIT_FAILURE;
  }
  const exit = await runQwen(plan);
  if (!exit.started) {
    writeError(io, NOT_STARTED);
    return EXIT_FAILURE;
  }
  return exit.exitCode;
}

/**
 * Accepts exactly one `--profile <value>` or `--profile=<value>`. `--profile` at the end of
 * the line gives `null` (a profile error, exit 1, not a usage error: docs/design/examples.md §8.1).
 */
function parseProfileFlag(args: readonly string[]): ProfileFlag {
  let flag: ProfileFlag;
  let seen = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    // An end-of-options marker is refused, wherever it stands, so it cannot smuggle a flag.
    if (arg === '--') throw new UsageError('The end-of-options marker "--" is not accepted.', COMMAND);
    let value: string | null;
    if (arg === '--profile') {
      const next = args[index + 1];
      if (next === '--') throw new UsageError('The end-of-options marker "--" is not accepted.', COMMAND);
      value = next ?? null;
      index++;
    } else if (arg.startsWith('--profile=')) {
      value = arg.slice('--profile='.length);
    } else if (arg.startsWith('-')) {
      throw new UsageError(unknownOption(arg), COMMAND);
    } else {
      throw new UsageError('Unexpected argument.', COMMAND);
    }
    if (seen) throw new UsageError('Option --profile may be given only once.', COMMAND);
    seen = true;
    flag = value;
  }
  if (!seen) throw new UsageError('Option --profile is required.', COMMAND);
  return flag;
}

// A flag is echoed only when it looks like a flag name, never an arbitrary value.
function unknownOption(arg: string): string {
  const name = arg.split('=')[0] ?? arg;
  return /^--?[A-Za-z0-9][A-Za-z0-9-]{0,40}$/.test(name) ? `Unknown option ${name}.` : 'Unknown option.';
}
