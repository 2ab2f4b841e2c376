// The shape every command module exports, and the dispatch-table entry that loads it lazily.
import type { Io } from './io.ts';

/** A command module: its `--help` text and its runner. Runners return an exit code, never exit. */
export interface CommandModule {
  /** Full `--help` text printed to stdout (exit 0). */
  readonly help: string;
  /** Runs the command with the arguments after its name. */
  run(args: string[], io: Io): Promise<number>;
}
