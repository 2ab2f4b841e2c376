// Bundles the same code into one ESM file for Deno and Node.js >= 20.3 (docs/design/README.md, "Product
// shape"). Everything is bundled: the only imports left are `node:` built-ins, so the file
// runs with no node_modules next to it.
import { builtinModules } from 'node:module';
import { chmodSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { BuildFailure, toBuildFailure } from './build-failure.ts';
import { commitDefines } from './defines.ts';
import { BUNDLE_NAME, ENTRY_FILE } from './targets.ts';

const SHEBANG = '#!/usr/bin/env node';

/**
 * Writes the single-file ESM bundle (`#!/usr/bin/env node`, executable bit set).
 *
 * @param outfile Absolute path of the bundle; replaced only once the build succeeded.
 * @param commit 12-hex-digit commit to embed, or undefined for `(commit unknown)`.
 * @param options `plugins`: extra Bun plugins (tests use one to mark when a module is evaluated).
 * @returns Resolves once the bundle is in place, to the input paths of Bun's metafile
 *   (relative to the repository root; for the SBOM).
 * @throws {BuildFailure} If Bun reports an error, or the output still imports anything but a
 *   `node:` built-in (which would need node_modules at run time).
 */
export async function bundleEsm(outfile: string, commit: string | undefined, options: { readonly plugins?: readonly Bun.BunPlugin[] } = {}): Promise<string[]> {
  const temporaryDir = mkdtempSync(path.join(path.dirname(outfile), '.tmp-bundle-'));
  try {
    let metafile: Bun.BuildMetafile | undefined;
    try {
      const result = await Bun.build({
        entrypoints: [ENTRY_FILE],
        target: 'node',
        format: 'esm',
        splitting: false,
        minify: true,
        banner: SHEBANG,
        metafile: true,
        define: commitDefines(commit),
        plugins: [...(options.plugins ?? [])],
        outdir: temporaryDir,
        naming: BUNDLE_NAME,
      });
      metafile = result.metafile;
    } catch (error) {
      throw toBuildFailure(`bundle ${BUNDLE_NAME}`, error);
    }
    const leftovers = externalImports(metafile);
    if (leftovers.length > 0) {
      throw new BuildFailure(`bundle ${BUNDLE_NAME} left imports that need node_modules.`, leftovers);
    }
    const written = path.join(temporaryDir, BUNDLE_NAME);
    chmodSync(written, 0o755);
    renameSync(written, outfile);
    return Object.keys(metafile?.inputs ?? {});
  } finally {
    rmSync(temporaryDir, { recursive: true, force: true });
  }
}

/**
 * Lists the imports the bundler left external, except `node:` built-ins and lazy `import()`
 * of `bun:` modules (evaluated only under Bun, by src/runtime/).
 */
function externalImports(metafile: Bun.BuildMetafile | undefined): string[] {
  if (metafile === undefined) return ['the bundler returned no metafile, so externals could not be checked'];
  const builtins = new Set(builtinModules);
  const found = new Set<string>();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const entry of input.imports) {
      if (entry.external !== true) continue;
      const specifier = entry.original ?? entry.path;
      if (specifier.startsWith('node:') || builtins.has(specifier)) continue;
      if (entry.kind === 'dynamic-import' && specifier.startsWith('bun:')) continue;
      // Bun 1.4.4 sometimes marks a relative import of a module it did inline (one that is
      // imported both from the static graph and from a lazily loaded module) as external.
      if (isBundledInput(metafile, file, specifier)) continue;
      found.add(`${file}: ${entry.kind} ${JSON.stringify(specifier)}`);
    }
  }
  return [...found].sort();
}

/** True when a relative specifier names a file that is itself one of the bundle's inputs. */
function isBundledInput(metafile: Bun.BuildMetafile, importer: string, specifier: string): boolean {
  if (!specifier.startsWith('.')) return false;
  const target = path.join(path.dirname(importer), specifier);
  return Object.prototype.hasOwnProperty.call(metafile.inputs, target);
}
