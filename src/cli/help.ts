// Helpers shared by command modules for `-h`/`--help`.
import { type Io, writeOut } from './io.ts';

/** True when `args` asks for help: `-h` or `--help` anywhere before a `--` marker. */
export function wantsHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/** Prints a help text to stdout (with one trailing newline) and returns exit code 0. */
export function printHelp(io: Io, text: string): number {
  writeOut(io, text.endsWith('\n') ? text : `${text}\n`);
  return 0;
}
