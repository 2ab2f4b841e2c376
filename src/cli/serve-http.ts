// Placeholder until `serve --http` lands (issue 9).
import type { Io } from './io.ts';
import { writeError } from './io.ts';

/** Reports that remote serving is not available yet. */
export async function runHttp(_args: string[], io: Io): Promise<number> {
  writeError(io, 'External context startup failed.');
  return 1;
}
