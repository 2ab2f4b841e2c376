// Compiles a benchmark's reference program with the product's own executable options, so a
// ratio compares the product with a program that differs only in what it does.
import path from 'node:path';
import { JIT_POLICY_SCALE } from '../../build/compile.ts';

/** The reference programs `npm run bench` compiles. */
export const REFERENCE_PROGRAMS = {
  /** Prints one line and exits: the start-up floor. */
  floor: path.join(import.meta.dir, 'floor-main.ts'),
  /** The minimal stdio JSON-RPC relay: the warm-call reference. */
  stdioRelay: path.join(import.meta.dir, 'stdio-relay-main.ts'),
} as const;

/**
 * Compiles `entry` into `outfile` with `bun build --compile --minify --bytecode
 * --format=esm --splitting`, the product's `--compile-jit-policy` and no autoloaded .env,
 * bunfig, tsconfig or package.json, as build/compile.ts does for the product.
 *
 * @param entry Absolute path of the program's source.
 * @param outfile Absolute path of the executable to write.
 * @returns `outfile`.
 * @throws {Error} If Bun reports a build error.
 */
export async function compileLikeProduct(entry: string, outfile: string): Promise<string> {
  await Bun.build({
    entrypoints: [entry],
    minify: true,
    bytecode: true,
    format: 'esm',
    splitting: true,
    compile: { outfile, jitPolicy: JIT_POLICY_SCALE, autoloadDotenv: false, autoloadBunfig: false, autoloadTsconfig: false, autoloadPackageJson: false },
  });
  return outfile;
}
