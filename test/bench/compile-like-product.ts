// Compiles a benchmark's reference program with the product's own executable options, so a
// ratio compares the product with a program that differs only in what it does.
import path from 'node:path';
import { JIT_POLICY_SCALE } from '../../build/compile.ts';
import { commitDefines } from '../../build/defines.ts';

/** The reference programs `npm run bench` compiles. */
export const REFERENCE_PROGRAMS = {
  /** Prints one line and exits: the start-up floor. */
  floor: path.join(import.meta.dir, 'floor-main.ts'),
  /** The minimal stdio JSON-RPC relay: the warm-call reference. */
  stdioRelay: path.join(import.meta.dir, 'stdio-relay-main.ts'),
  /** The MCP SDK's own floor, stdio and `serve --http` (issue 18, items 2 and 3). */
  sdkFloor: path.join(import.meta.dir, 'sdk-floor-main.ts'),
} as const;

/** Options that differ from the product's build, one at a time (the start-up breakdown). */
export interface CompileDifferences {
  readonly minify?: boolean;
  readonly bytecode?: boolean;
  readonly splitting?: boolean;
  /** The commit to embed (the product's entry prints it with --version). */
  readonly commit?: string | undefined;
}

/**
 * Compiles `entry` into `outfile` with `bun build --compile --minify --bytecode
 * --format=esm --splitting`, the product's `--compile-jit-policy` and no autoloaded .env,
 * bunfig, tsconfig or package.json, as build/compile.ts does for the product.
 *
 * @param entry Absolute path of the program's source.
 * @param outfile Absolute path of the executable to write.
 * @param differences Options to change from the product's (the default is none).
 * @returns `outfile`.
 * @throws {Error} If Bun reports a build error.
 */
export async function compileLikeProduct(entry: string, outfile: string, differences: CompileDifferences = {}): Promise<string> {
  await Bun.build({
    entrypoints: [entry],
    minify: differences.minify ?? true,
    bytecode: differences.bytecode ?? true,
    format: 'esm',
    splitting: differences.splitting ?? true,
    define: commitDefines(differences.commit),
    compile: { outfile, jitPolicy: JIT_POLICY_SCALE, autoloadDotenv: false, autoloadBunfig: false, autoloadTsconfig: false, autoloadPackageJson: false },
  });
  return outfile;
}
