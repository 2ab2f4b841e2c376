// Entry point: argv, env and stdio in; exit code out. The only module that reads `process`
// globals or ends the process (style.md, "CLI: dispatch, help, exit codes").
import process from 'node:process';
import { run } from './cli/dispatch.ts';

const startedAtMs = Date.now() - (typeof process.uptime === 'function' ? process.uptime() * 1000 : 0);

function scriptPath(): string | undefined {
  const script = process.argv[1];
  return typeof script === 'string' && /\.m?js$/.test(script) ? script : undefined;
}

async function main(): Promise<void> {
  let code: number;
  try {
    code = await run(process.argv.slice(2), {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
      cwd: process.cwd(),
      execPath: process.execPath,
      scriptPath: scriptPath(),
      startedAtMs,
      stderrIsTty: process.stderr.isTTY === true,
    });
  } catch {
    process.stderr.write('[external-context] The command failed unexpectedly.\n');
    code = 1;
  }
  // Exit only after stdout has drained: a pending stdin read, socket or timer must not keep
  // the process alive (hooks.md §1, profile-v1.md §7). A failing stdout means exit 1.
  process.stdout.write('', (error) => process.exit(error ? 1 : code));
}

void main();
