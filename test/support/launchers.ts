// The three runtimes a process-level test starts, as data (issue 26 §3): the compiled
// executable (Bun), dist/external-context.mjs under the real Node.js on PATH, and the same
// bundle under the real Deno of the root package with a permission set (spec README,
// "Runtimes", "Deno permissions"). Every process-level test takes its launchers from here;
// test/support/runtime-capabilities.ts says which test proves what on which of them.
import { binPath, bundlePath, exePath, requireBuilt } from './paths.ts';

/** The id of one runtime row of the matrix. */
export type RuntimeId = 'executable' | 'node-bundle' | 'deno-bundle';

/** Every runtime row, in the order tests run them. */
export const RUNTIME_IDS: readonly RuntimeId[] = ['executable', 'node-bundle', 'deno-bundle'];

/** The JavaScript runtime under each row (what `src/runtime/runtime.ts` detects there). */
export const ENGINE: Readonly<Record<RuntimeId, 'bun' | 'node' | 'deno'>> = { executable: 'bun', 'node-bundle': 'node', 'deno-bundle': 'deno' };

/** The base Deno permissions every command runs with (spec README, "Deno permissions"). */
export const DENO_BASE_PERMISSIONS: readonly string[] = ['--no-prompt', '--allow-read', '--allow-env', '--allow-net'];

/** The base set plus `--allow-write`: the corpus index and the write-confirmation Hook's files. */
export const DENO_WRITE_PERMISSIONS: readonly string[] = [...DENO_BASE_PERMISSIONS, '--allow-write'];

/** A command and the leading arguments that run the product (`label` names it in assertions). */
export interface BundleLauncher {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
}

/** A runtime row: how to start the product on it. */
export interface Launcher extends BundleLauncher {
  readonly id: RuntimeId;
  readonly engine: 'bun' | 'node' | 'deno';
}

/** The command that runs a JavaScript file under a runtime (for a test's own script). */
export interface ScriptRunner {
  readonly command: string;
  /** The arguments before the script path. */
  readonly args: readonly string[];
}

/**
 * The bundle's path, after checking that it exists.
 *
 * @throws {Error} If `npm run build` (or the pretest step of `npm test`) has not written it.
 */
export function requireBundle(): string {
  return requireBuilt(bundlePath());
}

/** The Deno binary of the root package. */
export function denoCommand(): string {
  return binPath('deno');
}

/** The `node` on PATH. */
export function nodeCommand(): string {
  return Bun.which('node') ?? 'node';
}

/** The compiled executable, after checking that it exists. */
export function exeLauncher(): Launcher {
  return { id: 'executable', engine: 'bun', label: 'executable', command: requireBuilt(exePath()), args: [] };
}

/**
 * `deno run <permissions> dist/external-context.mjs`.
 *
 * @param permissions The permission flags (default: the base set).
 */
export function denoLauncher(permissions: readonly string[] = DENO_BASE_PERMISSIONS): Launcher {
  return { id: 'deno-bundle', engine: 'deno', label: `deno run ${permissions.join(' ')}`, command: denoCommand(), args: ['run', ...permissions, requireBundle()] };
}

/** `node dist/external-context.mjs`, with the `node` found on PATH. */
export function nodeLauncher(): Launcher {
  return { id: 'node-bundle', engine: 'node', label: 'node', command: nodeCommand(), args: [requireBundle()] };
}

/**
 * The launcher of one runtime row.
 *
 * @param id The row.
 * @param denoPermissions The Deno permission set (ignored on the other rows; default: the base set).
 */
export function launcher(id: RuntimeId, denoPermissions: readonly string[] = DENO_BASE_PERMISSIONS): Launcher {
  switch (id) {
    case 'executable':
      return exeLauncher();
    case 'node-bundle':
      return nodeLauncher();
    case 'deno-bundle':
      return denoLauncher(denoPermissions);
  }
}

/**
 * The launchers of several rows (default: all three, executable first). Call it inside a test
 * or hook, so a missing build output fails that test, not the file's import.
 */
export function launchers(ids: readonly RuntimeId[] = RUNTIME_IDS, denoPermissions?: readonly string[]): Launcher[] {
  return ids.map((id) => launcher(id, denoPermissions));
}

/**
 * How a test's own ESM script runs under a row's engine: `bun`, `node`, or `deno run` with a
 * permission set, for the in-process batches of test/runtime/outbound-matrix.test.ts.
 *
 * @param id The row whose engine runs the script.
 * @param denoPermissions The Deno permission set (default: the base set).
 */
export function scriptRunner(id: RuntimeId, denoPermissions: readonly string[] = DENO_BASE_PERMISSIONS): ScriptRunner {
  switch (id) {
    case 'executable':
      return { command: process.execPath, args: [] };
    case 'node-bundle':
      return { command: nodeCommand(), args: [] };
    case 'deno-bundle':
      return { command: denoCommand(), args: ['run', ...denoPermissions] };
  }
}
