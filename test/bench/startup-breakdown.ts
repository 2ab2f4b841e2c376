// The start-up breakdown of `npm run bench` (issue 18, item 1): small programs and product builds
// that each differ from the next in one thing, compiled with the product's options
// (compile-like-product.ts) and timed in the same interleaved rounds as the floor, so each
// step's cost is the difference of two medians measured side by side.
import path from 'node:path';
import { ENTRY_FILE } from '../../build/targets.ts';
import { compileLikeProduct } from './compile-like-product.ts';
import type { StartupFigure } from './run.ts';

const HERE = path.join(import.meta.dir, 'startup');

/** One step of the breakdown: what it runs and what it adds over the step before it. */
export interface BreakdownStep {
  /** Sample key (`bd-…`). */
  readonly key: string;
  readonly label: string;
  /** The program's source, or the product's entry. */
  readonly entry: string;
  /** Arguments (the product's `--version`). */
  readonly args: readonly string[];
  readonly differences?: { readonly minify?: boolean; readonly bytecode?: boolean; readonly splitting?: boolean };
}

/** In the order printed; `floor` is the bench's own floor and not repeated here. */
export const BREAKDOWN_STEPS: readonly BreakdownStep[] = [
  { key: 'bd-empty', label: 'empty program (runtime start, embedded module)', entry: path.join(HERE, 'empty-main.ts'), args: [] },
  { key: 'bd-fd-write', label: 'print with writeSync(1), named import from node:fs', entry: path.join(HERE, 'fd-write-main.ts'), args: [] },
  { key: 'bd-fd-write-ns', label: 'the same, namespace import of node:fs (what the product does)', entry: path.join(HERE, 'fd-write-ns-main.ts'), args: [] },
  { key: 'bd-bun-write', label: 'print with Bun.write(Bun.stdout) (no node:fs)', entry: path.join(HERE, 'bun-write-main.ts'), args: [] },
  { key: 'bd-stdout-stream', label: 'print with process.stdout.write (stream object)', entry: path.join(HERE, 'stdout-stream-main.ts'), args: [] },
  { key: 'bd-stderr-tty', label: 'read process.stderr.isTTY, print with writeSync', entry: path.join(HERE, 'stderr-tty-main.ts'), args: [] },
  { key: 'bd-node-util', label: 'load node:util, parseArgs one flag, writeSync', entry: path.join(HERE, 'node-util-main.ts'), args: [] },
  { key: 'bd-product-graph', label: "product's static graph (main.ts imports), writeSync, exit", entry: path.join(HERE, 'product-graph-main.ts'), args: [] },
  { key: 'bd-version-no-bytecode', label: 'product --version, built without --bytecode', entry: ENTRY_FILE, args: ['--version'], differences: { bytecode: false } },
  { key: 'bd-version-no-splitting', label: 'product --version, built without --splitting', entry: ENTRY_FILE, args: ['--version'], differences: { splitting: false } },
  { key: 'bd-version-no-minify', label: 'product --version, built without --minify', entry: ENTRY_FILE, args: ['--version'], differences: { minify: false } },
];

/** A measured step. */
export interface BreakdownFigure extends StartupFigure {
  readonly key: string;
  readonly label: string;
}

/**
 * Compiles every step into `dir`.
 *
 * @param commit The commit the product builds embed.
 * @returns Subjects for the interleaved rounds: key, command and arguments.
 */
export async function compileBreakdown(dir: string, commit: string | undefined): Promise<{ key: string; command: string; args: readonly string[] }[]> {
  const compiled: { key: string; command: string; args: readonly string[] }[] = [];
  for (const step of BREAKDOWN_STEPS) {
    const outfile = await compileLikeProduct(step.entry, path.join(dir, step.key), { ...step.differences, commit });
    compiled.push({ key: step.key, command: outfile, args: step.args });
  }
  return compiled;
}
