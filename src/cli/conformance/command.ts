// Placeholder until the `conformance` command lands (see the open issues); keeps the dispatch
// table and the build complete in the meantime.
import type { Io } from './../io.ts';
import { writeError } from './../io.ts';

/** Help text. */
export const help = 'external-context conformance: not available in this build.\n';

/** Reports that the command is not available yet. */
export async function run(_args: string[], io: Io): Promise<number> {
  writeError(io, 'This command is not available in this build.');
  return 1;
}
