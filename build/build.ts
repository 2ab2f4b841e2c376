// `npm run build` / `build:all` / pretest `--if-stale`: compiles the host executable and the
// ESM bundle; `--all` adds the cross-compiled executables (darwin ones re-signed and verified),
// the SBOMs (the bundle's, and one per executable with the Bun runtime) and dist/SHA256SUMS
// (docs/design/README.md, "Product shape", "Releases"). Prints each step's time and size.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BuildFailure } from './build-failure.ts';
import { bundleEsm } from './bundle.ts';
import { writeChecksums } from './checksums.ts';
import { readBuildCommit } from './commit.ts';
import { compileExecutable, isDarwin } from './compile.ts';
import { IMAGE_ARCHIVE_NAME } from './image.ts';
import { verifyDarwinExecutable } from './macho-verify.ts';
import { runtimeSbom } from './runtime-sbom.ts';
import { executableSbomName, SBOM_NAME, writeSbom } from './sbom.ts';
import { isStale } from './stale.ts';
import { BUNDLE_NAME, CHECKSUMS_NAME, COMMIT_STAMP_NAME, CROSS_TARGETS, DIST_DIR, HOST_EXECUTABLE_NAME, ROOT_DIR, STALENESS_INPUTS } from './targets.ts';

/** What to build. */
export interface BuildOptions {
  /** Also cross-compile every target and write SHA256SUMS. */
  readonly all: boolean;
  /** Skip the host executable and bundle when they are newer than every input. */
  readonly ifStale: boolean;
  /** Receives one progress line per step. */
  readonly log: (line: string) => void;
}

/**
 * Builds into dist/: always the host executable and the bundle (unless `ifStale` finds them
 * fresh), with `all` also the five cross-compiled executables and SHA256SUMS.
 *
 * @param options What to build and where progress goes.
 * @returns Resolves when every artifact is in place.
 * @throws {BuildFailure} If any step fails; artifacts already written stay, a failed one is
 *   never left half-written.
 */
export async function buildArtifacts(options: BuildOptions): Promise<void> {
  mkdirSync(DIST_DIR, { recursive: true });
  const commit = readBuildCommit(ROOT_DIR);
  const hostFiles = [HOST_EXECUTABLE_NAME, BUNDLE_NAME].map((name) => path.join(DIST_DIR, name));
  const stampFile = path.join(DIST_DIR, COMMIT_STAMP_NAME);
  // A new commit with unchanged files still changes what `--version` prints.
  if (options.ifStale && !isStale(hostFiles, STALENESS_INPUTS) && readStamp(stampFile) === stampOf(commit)) {
    options.log(`up to date  ${HOST_EXECUTABLE_NAME}, ${BUNDLE_NAME} (commit ${commit ?? 'unknown'})`);
    return;
  }
  options.log(`building with commit ${commit ?? 'unknown'}`);
  const outfile = (name: string): string => path.join(DIST_DIR, name);
  const inputs = new Set<string>();
  const collect = (found: readonly string[]): void => found.forEach((input) => inputs.add(input));
  collect(await timed(options.log, 'compile', HOST_EXECUTABLE_NAME, () => compileExecutable({ outfile: outfile(HOST_EXECUTABLE_NAME), commit })));
  collect(await timed(options.log, 'bundle', BUNDLE_NAME, () => bundleEsm(outfile(BUNDLE_NAME), commit)));
  writeFileSync(stampFile, `${stampOf(commit)}\n`);
  // An image archive holds the executables of an earlier build: `npm run build:image` makes a new one.
  rmSync(outfile(IMAGE_ARCHIVE_NAME), { force: true });
  if (!options.all) {
    // The checksums and SBOM of an earlier build:all no longer match the host artifacts.
    rmSync(outfile(CHECKSUMS_NAME), { force: true });
    for (const name of [SBOM_NAME, ...CROSS_TARGETS.map((target) => executableSbomName(target.fileName))]) rmSync(outfile(name), { force: true });
    return;
  }
  for (const target of CROSS_TARGETS) {
    collect(await timed(options.log, 'compile', target.fileName, () => compileExecutable({ outfile: outfile(target.fileName), target: target.bunTarget, commit })));
  }
  // Independent of the signer: a darwin executable whose signature does not verify fails the build.
  for (const target of CROSS_TARGETS.filter((entry) => isDarwin(entry.bunTarget))) {
    await timed(options.log, 'verify', target.fileName, async () => verifyDarwinExecutable(outfile(target.fileName)));
  }
  await timed(options.log, 'sbom', SBOM_NAME, async () => writeSbom(ROOT_DIR, outfile(SBOM_NAME), inputs));
  // Every executable is mostly the Bun runtime: its SBOM adds the runtime package and the native
  // libraries the compiling Bun reports (issue 25 §2), the same release as each target's runtime.
  for (const target of CROSS_TARGETS) {
    const name = executableSbomName(target.fileName);
    await timed(options.log, 'sbom', name, async () => writeSbom(ROOT_DIR, outfile(name), inputs, runtimeSbom(ROOT_DIR, target.bunTarget, process.versions)));
  }
  const listed = [HOST_EXECUTABLE_NAME, ...CROSS_TARGETS.map((target) => target.fileName), BUNDLE_NAME, SBOM_NAME, ...CROSS_TARGETS.map((target) => executableSbomName(target.fileName))];
  await timed(options.log, 'checksum', CHECKSUMS_NAME, () => writeChecksums(DIST_DIR, listed, CHECKSUMS_NAME));
}

async function timed<T>(log: BuildOptions['log'], step: string, name: string, action: () => Promise<T>): Promise<T> {
  const startMs = performance.now();
  const result = await action();
  const seconds = ((performance.now() - startMs) / 1000).toFixed(2);
  log(`${step.padEnd(9)}${name.padEnd(42)}${`${seconds} s`.padStart(9)}${formatSize(path.join(DIST_DIR, name)).padStart(12)}`);
  return result;
}

function formatSize(file: string): string {
  const bytes = statSync(file).size;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

function stampOf(commit: string | undefined): string {
  return commit ?? 'unknown';
}

function readStamp(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function parseOptions(args: readonly string[]): { all: boolean; ifStale: boolean } | undefined {
  const known = new Set(['--all', '--if-stale']);
  if (args.some((arg) => !known.has(arg))) return undefined;
  const all = args.includes('--all');
  const ifStale = args.includes('--if-stale');
  return all && ifStale ? undefined : { all, ifStale };
}

async function main(args: readonly string[]): Promise<number> {
  const parsed = parseOptions(args);
  if (parsed === undefined) {
    console.error('[build] Usage: bun build/build.ts [--all | --if-stale]');
    return 2;
  }
  const startMs = performance.now();
  try {
    await buildArtifacts({ ...parsed, log: (line) => console.log(line) });
  } catch (error) {
    if (!(error instanceof BuildFailure)) throw error;
    console.error(`[build] ${error.message}`);
    for (const line of error.details) console.error(`  ${line}`);
    return 1;
  }
  console.log(`done in ${((performance.now() - startMs) / 1000).toFixed(2)} s`);
  return 0;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
