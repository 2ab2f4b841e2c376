// Compiles the standalone executable with Bun (`bun build --compile --minify --bytecode
// --format=esm`). Bytecode was measured to start `serve` about 20 ms faster (spec README,
// "Dependencies": cold start is measured on a --bytecode executable).
import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { toBuildFailure } from './build-failure.ts';
import { commitDefines } from './defines.ts';
import { type CrossTarget, ENTRY_FILE } from './targets.ts';

/** What to compile and where. */
export interface CompileOptions {
  /** Absolute path of the executable to write; replaced only once the build succeeded. */
  readonly outfile: string;
  /** Bun cross-compile target; omitted for the machine running the build. */
  readonly target?: CrossTarget['bunTarget'];
  /** 12-hex-digit commit to embed, or undefined for `(commit unknown)`. */
  readonly commit: string | undefined;
}

/**
 * Compiles src/main.ts into one executable that needs no node_modules, source tree or network.
 *
 * @param options Output path, target and commit.
 * @returns Resolves once the executable is in place.
 * @throws {BuildFailure} If Bun reports an error (for example an unresolved import) or writes
 *   no file.
 */
export async function compileExecutable(options: CompileOptions): Promise<void> {
  // Write next to the target, then rename: a failed or interrupted build never leaves a
  // truncated executable under the final name. The temporary name keeps a `.exe` suffix.
  const temporary = path.join(path.dirname(options.outfile), `.tmp-${process.pid}-${path.basename(options.outfile)}`);
  const step = `compile ${path.basename(options.outfile)}`;
  try {
    await Bun.build({
      entrypoints: [ENTRY_FILE],
      minify: true,
      bytecode: true,
      format: 'esm',
      define: commitDefines(options.commit),
      compile: {
        ...(options.target === undefined ? {} : { target: options.target }),
        outfile: temporary,
        // The executable runs in users' workspaces: a `.env`, bunfig.toml, tsconfig.json or
        // package.json found there must not change its environment or behaviour.
        autoloadDotenv: false,
        autoloadBunfig: false,
        autoloadTsconfig: false,
        autoloadPackageJson: false,
      },
    });
    renameSync(temporary, options.outfile);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw toBuildFailure(step, error);
  }
}
