// dist/external-context.cdx.json: a CycloneDX 1.6 JSON SBOM of exactly the npm packages bundled
// into the bundle, and one `<executable>.cdx.json` per executable that adds the Bun runtime and
// its native libraries (build/runtime-sbom.ts; docs/design/README.md, "Releases"). The package list comes
// from Bun's build metafiles (every input file under node_modules/), not from package.json;
// each component carries name, version, license and the lockfile's integrity hash. Built with
// @cyclonedx/cyclonedx-library. Deterministic: no timestamp, no random serial number,
// components sorted.
import { Contrib, Enums, Models, Serialize, Spec } from '@cyclonedx/cyclonedx-library';
import { readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BuildFailure } from './build-failure.ts';
import { runtimeComponent, type RuntimeSbom } from './runtime-sbom.ts';

/** File name of the SBOM under dist/. */
export const SBOM_NAME = 'external-context.cdx.json';

/** One npm package found among a metafile's inputs. */
export interface BundledPackage {
  readonly name: string;
  readonly version: string;
  /** Folder of the package relative to the repository root (`node_modules/...`), as in the lockfile. */
  readonly lockPath: string;
  /** The package.json `license` field, when it is a string. */
  readonly license: string | undefined;
  /** The lockfile's `integrity` (`sha512-<base64>`), when it has one. */
  readonly integrity: string | undefined;
}

/**
 * The package folder an input path lies in: the part up to and including the last
 * `node_modules/<name>` or `node_modules/@scope/<name>`, or undefined for our own sources.
 *
 * @param input A metafile input path, relative to the repository root, `/` separated.
 */
export function packageFolderOf(input: string): string | undefined {
  const match = /^(?:.*\/)?node_modules\/(?:@[^/]+\/)?[^/]+/.exec(input.split(path.sep).join('/'));
  return match?.[0];
}

/**
 * Lists the packages that the metafiles' inputs come from.
 *
 * @param rootDir Repository root (holds package-lock.json and node_modules/, which may be a
 *   symbolic link: Bun reports inputs by their real path).
 * @param inputs Input paths of one or more Bun metafiles, relative to `cwd` or absolute.
 * @param cwd The directory the build ran in (default the current one).
 * @returns One entry per package folder, sorted by name then version.
 * @throws {BuildFailure} When a package's package.json cannot be read or the lockfile does not list it.
 */
export function bundledPackages(rootDir: string, inputs: Iterable<string>, cwd: string = process.cwd()): BundledPackage[] {
  const lock = JSON.parse(readFileSync(path.join(rootDir, 'package-lock.json'), 'utf8')) as {
    packages?: Record<string, { version?: string; integrity?: string }>;
  };
  const modulesDir = realpathSync(path.join(rootDir, 'node_modules'));
  const folders = new Set<string>();
  for (const input of inputs) {
    const absolute = path.resolve(cwd, input);
    // The lockfile names a package by its folder below the root: node_modules/<name>[/node_modules/<name>].
    const relative = absolute.startsWith(modulesDir + path.sep) ? `node_modules/${path.relative(modulesDir, absolute)}` : path.relative(rootDir, absolute);
    const folder = packageFolderOf(relative);
    if (folder !== undefined) folders.add(folder);
  }
  const packages: BundledPackage[] = [];
  for (const folder of folders) {
    let manifest: { name?: unknown; version?: unknown; license?: unknown };
    try {
      manifest = JSON.parse(readFileSync(path.join(rootDir, folder, 'package.json'), 'utf8')) as typeof manifest;
    } catch (error) {
      throw new BuildFailure(`sbom: ${folder}/package.json cannot be read.`, [], { cause: error });
    }
    const entry = lock.packages?.[folder];
    if (typeof manifest.name !== 'string' || typeof manifest.version !== 'string' || entry === undefined || entry.version !== manifest.version) {
      throw new BuildFailure(`sbom: ${folder} is not the package package-lock.json lists; run npm ci.`);
    }
    packages.push({
      name: manifest.name,
      version: manifest.version,
      lockPath: folder,
      license: typeof manifest.license === 'string' ? manifest.license : undefined,
      integrity: entry.integrity,
    });
  }
  return packages.sort((a, b) => (a.name === b.name ? a.version.localeCompare(b.version) : a.name < b.name ? -1 : 1));
}

/**
 * Serializes the SBOM.
 *
 * @param product The root component: our package's name, version and license.
 * @param packages What {@link bundledPackages} found.
 * @param runtime For an executable: the Bun runtime inside it ({@link runtimeSbom}).
 * @returns CycloneDX 1.6 JSON text, ending in a newline.
 */
export function sbomJson(product: { name: string; version: string; license: string }, packages: readonly BundledPackage[], runtime?: RuntimeSbom): string {
  // Anything that is not a plain SPDX id becomes a named license: no expression parser is installed.
  const licenses = new Contrib.License.Factories.LicenseFactory(() => {
    throw new Error('SPDX expressions are kept as named licenses');
  });
  const bom = new Models.Bom();
  const root = new Models.Component(Enums.ComponentType.Application, product.name, {
    version: product.version,
    bomRef: `${product.name}@${product.version}`,
    licenses: new Models.LicenseRepository([licenses.makeFromString(product.license)]),
  });
  bom.metadata.component = root;
  for (const pkg of packages) {
    const scoped = /^(@[^/]+)\/(.+)$/.exec(pkg.name);
    const hashes = new Models.HashDictionary();
    const integrity = /^sha512-([A-Za-z0-9+/=]+)$/.exec(pkg.integrity ?? '');
    if (integrity?.[1] !== undefined) hashes.set(Enums.HashAlgorithm['SHA-512'], Buffer.from(integrity[1], 'base64').toString('hex'));
    const component = new Models.Component(Enums.ComponentType.Library, scoped?.[2] ?? pkg.name, {
      ...(scoped?.[1] === undefined ? {} : { group: scoped[1] }),
      version: pkg.version,
      bomRef: `${pkg.name}@${pkg.version}`,
      purl: `pkg:npm/${scoped === null ? pkg.name : `${encodeURIComponent(scoped[1] ?? '')}/${scoped[2] ?? ''}`}@${pkg.version}`,
      hashes,
      licenses: new Models.LicenseRepository(pkg.license === undefined ? [] : [licenses.makeFromString(pkg.license)]),
    });
    bom.components.add(component);
  }
  if (runtime !== undefined) bom.components.add(runtimeComponent(runtime));
  const serializer = new Serialize.JsonSerializer(new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6));
  return `${serializer.serialize(bom, { sortLists: true, space: 2 })}\n`;
}

/** The SBOM file of one executable: its file name without `.exe`, then `.cdx.json`. */
export function executableSbomName(fileName: string): string {
  return `${fileName.replace(/\.exe$/, '')}.cdx.json`;
}

/**
 * Writes an SBOM (temporary file, then rename): dist/external-context.cdx.json without
 * `runtime`, an executable's SBOM with it.
 *
 * @param rootDir Repository root.
 * @param outfile Absolute path of the SBOM.
 * @param inputs Input paths of the metafiles of every build output.
 * @param runtime For an executable: the Bun runtime inside it.
 */
export function writeSbom(rootDir: string, outfile: string, inputs: Iterable<string>, runtime?: RuntimeSbom): void {
  const manifest = JSON.parse(readFileSync(path.join(rootDir, 'package.json'), 'utf8')) as { name: string; version: string; license: string };
  const text = sbomJson(manifest, bundledPackages(rootDir, inputs), runtime);
  const temporary = path.join(path.dirname(outfile), `.tmp-${process.pid}-${path.basename(outfile)}`);
  writeFileSync(temporary, text);
  renameSync(temporary, outfile);
}
