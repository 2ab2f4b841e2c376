// Compiles the standalone executable with Bun (`bun build --compile --minify --bytecode
// --format=esm --splitting --compile-jit-policy=10`). Bytecode was measured to start `serve`
// about 20 ms faster (docs/design/README.md, "Dependencies": cold start is measured on a --bytecode
// executable). Splitting plus the JIT policy, against the previous build with
// `bun test/bench/run.ts --exe`, four interleaved runs each (issue 10): cold start to the
// first context_search 5.9× → 4.6× the floor, auto-recall Hook 2.9× → 2.4×, peak RSS of the
// warm server 61 → 57 MiB, warm calls unchanged, executable +28 KiB. Bun 1.4.4 has no
// working `--aot`: the flag is accepted and ignored (same executable, built-in prototypes
// still writable, cross targets still build).
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BuildFailure, toBuildFailure } from './build-failure.ts';
import { commitDefines } from './defines.ts';
import { MachOSignError, signMachO } from './macho-sign.ts';
import { type CrossTarget, ENTRY_FILE } from './targets.ts';

/**
 * `compile.jitPolicy`: the executable starts with JavaScriptCore's tier-up thresholds
 * multiplied by this (1 is the normal policy; see `Bun.unsafe.setJITPolicy`). Run-once
 * start-up code then stays in the interpreter instead of occupying JIT threads on a machine
 * that also runs the client. The stdio server keeps it: 1,000 warm calls used the same CPU
 * either way, and restoring scale 1 after the first call raised peak RSS by about 4 MiB. The
 * HTTP servers restore scale 1 once listening (src/runtime/jit.ts): without that, `serve
 * --http` spent 10–15% more CPU per search.
 */
export const JIT_POLICY_SCALE = 10;

/** What to compile and where. */
export interface CompileOptions {
  /** Absolute path of the executable to write; replaced only once the build succeeded. */
  readonly outfile: string;
  /** Bun cross-compile target; omitted for the machine running the build. */
  readonly target?: CrossTarget['bunTarget'];
  /** 12-hex-digit commit to embed, or undefined for `(commit unknown)`. */
  readonly commit: string | undefined;
  /** Extra Bun plugins (tests use one to mark when a module is evaluated). */
  readonly plugins?: readonly Bun.BunPlugin[];
}

/**
 * Compiles src/main.ts into one executable that needs no node_modules, source tree or network.
 *
 * @param options Output path, target, commit and any extra plugins.
 * @returns Resolves once the executable is in place, to the input paths of Bun's metafile
 *   (relative to the repository root; for the SBOM).
 * @throws {BuildFailure} If Bun reports an error (for example an unresolved import) or writes
 *   no file.
 */
export async function compileExecutable(options: CompileOptions): Promise<string[]> {
  // Write into a private folder next to the target, then rename: a failed or interrupted
  // build never leaves a truncated executable under the final name. The file inside keeps the
  // final name: Bun embeds it as the entry module's path (`/$bunfs/root/<name>`), so a name
  // with the process id made every build differ (issue 16.2).
  const temporaryDir = mkdtempSync(path.join(path.dirname(options.outfile), '.tmp-compile-'));
  const temporary = path.join(temporaryDir, path.basename(options.outfile));
  const step = `compile ${path.basename(options.outfile)}`;
  try {
    const result = await Bun.build({
      entrypoints: [ENTRY_FILE],
      metafile: true,
      minify: true,
      bytecode: true,
      format: 'esm',
      // Every import() target becomes its own chunk inside the executable, so a command
      // loads only the bytecode of the modules it runs: the Hooks never load the SDK's chunks.
      splitting: true,
      define: commitDefines(options.commit),
      plugins: [...(options.plugins ?? [])],
      compile: {
        ...(options.target === undefined ? {} : { target: options.target }),
        outfile: temporary,
        jitPolicy: JIT_POLICY_SCALE,
        // The executable runs in users' workspaces: a `.env`, bunfig.toml, tsconfig.json or
        // package.json found there must not change its environment or behaviour.
        autoloadDotenv: false,
        autoloadBunfig: false,
        autoloadTsconfig: false,
        autoloadPackageJson: false,
      },
    });
    if (isDarwin(options.target)) resign(temporary, step);
    renameSync(temporary, options.outfile);
    return Object.keys(result.metafile?.inputs ?? {});
  } catch (error) {
    throw error instanceof BuildFailure ? error : toBuildFailure(step, error);
  } finally {
    rmSync(temporaryDir, { recursive: true, force: true });
  }
}

/** True when the executable is for macOS (a cross target, or the host when that is a Mac). */
export function isDarwin(target: CrossTarget['bunTarget'] | undefined): boolean {
  return target === undefined ? process.platform === 'darwin' : target.startsWith('bun-darwin-');
}

/** Replaces the signature Bun wrote with our ad-hoc one (build/macho-sign.ts). */
function resign(file: string, step: string): void {
  let signed: Uint8Array;
  try {
    signed = signMachO(readFileSync(file));
  } catch (error) {
    if (!(error instanceof MachOSignError)) throw error;
    throw new BuildFailure(`${step}: the executable cannot be signed: ${error.message}.`, [], { cause: error });
  }
  writeFileSync(file, signed, { mode: 0o755 });
}
