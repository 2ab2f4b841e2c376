// The `--if-stale` rule of `npm test`'s pretest step: rebuild when an output is missing or
// older than any input file (docs/design/README.md, "Build, test, demo").
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Decides whether outputs must be rebuilt.
 *
 * @param outputs Absolute paths of the artifacts.
 * @param inputs Absolute paths of files or folders (walked recursively, node_modules skipped);
 *   a missing input is ignored.
 * @returns True when an output is missing or its modification time is older than the newest
 *   input's.
 */
export function isStale(outputs: readonly string[], inputs: readonly string[]): boolean {
  let oldestOutputMs = Number.POSITIVE_INFINITY;
  for (const output of outputs) {
    const mtimeMs = mtimeOrUndefined(output);
    if (mtimeMs === undefined) return true;
    oldestOutputMs = Math.min(oldestOutputMs, mtimeMs);
  }
  return inputs.some((input) => newestMtimeMs(input) > oldestOutputMs);
}

function newestMtimeMs(file: string): number {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    return Number.NEGATIVE_INFINITY;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  // A folder's own mtime counts too: deleting a file changes only the folder.
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(file)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtimeMs(path.join(file, entry)));
  }
  return newest;
}

function mtimeOrUndefined(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}
