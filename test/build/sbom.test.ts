// The SBOM (issue 16.6): dist/external-context.cdx.json lists exactly the npm packages whose
// files Bun bundled, taken from the build metafiles. Here the metafiles come from real builds
// of the bundle and the host executable into a temporary folder.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import Ajv from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleEsm } from '../../build/bundle.ts';
import { compileExecutable } from '../../build/compile.ts';
import { BuildFailure } from '../../build/build-failure.ts';
import { imageSbomJson } from '../../build/image-sbom.ts';
import { BUN_RUNTIME_PACKAGES, nativeComponents, NOT_NATIVE_COMPONENTS, runtimeSbom } from '../../build/runtime-sbom.ts';
import { bundledPackages, executableSbomName, packageFolderOf, SBOM_NAME, sbomJson } from '../../build/sbom.ts';
import { CROSS_TARGETS } from '../../build/targets.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

interface CdxComponent {
  name: string;
  group?: string;
  version: string;
  purl: string;
  type?: string;
  hashes?: { alg: string; content: string }[];
  licenses?: unknown[];
  components?: CdxComponent[];
  externalReferences?: { type: string; url: string }[];
}

let inputs: string[] = [];

beforeAll(async () => {
  const dir = (await makeTempDir('ec-sbom-')).path;
  const found = new Set<string>();
  for (const input of await bundleEsm(join(dir, 'bundle.mjs'), undefined)) found.add(input);
  for (const input of await compileExecutable({ outfile: join(dir, 'exe'), commit: undefined })) found.add(input);
  inputs = [...found];
}, LIVENESS_MS);
afterAll(removeTempDirs);

const fullName = (component: CdxComponent): string => `${component.group === undefined ? '' : `${component.group}/`}${component.name}`;

describe('SBOM from the build metafiles', () => {
  test('packageFolderOf() takes the innermost package, scoped or not, and ignores our sources', () => {
    expect(packageFolderOf('node_modules/@modelcontextprotocol/sdk/dist/esm/types.js')).toBe('node_modules/@modelcontextprotocol/sdk');
    expect(packageFolderOf('node_modules/a/node_modules/b/index.js')).toBe('node_modules/a/node_modules/b');
    expect(packageFolderOf('src/main.ts')).toBeUndefined();
  });

  test('every bundled module maps to a component, and every component has a bundled module', () => {
    const json = JSON.parse(sbomJson({ name: 'external-context', version: '0.1.0', license: 'Apache-2.0' }, bundledPackages(REPO_ROOT, inputs))) as { components: CdxComponent[] };
    const components = new Map(json.components.map((component) => [fullName(component), component]));
    const used = new Set<string>();
    for (const input of inputs) {
      const folder = packageFolderOf(input);
      if (folder === undefined) {
        expect(input).toMatch(/^(src|contracts)\//);
        continue;
      }
      const name = (JSON.parse(readFileSync(join(process.cwd(), folder, 'package.json'), 'utf8')) as { name: string }).name;
      expect(components.has(name)).toBe(true);
      used.add(name);
    }
    expect([...components.keys()].sort()).toEqual([...used].sort());
    // The three direct dependencies are among them; dev-only packages are not.
    for (const name of ['@modelcontextprotocol/sdk', 'valibot', 'jose']) expect(components.has(name)).toBe(true);
    for (const name of ['typescript', 'fast-check', 'bun', '@cyclonedx/cyclonedx-library']) expect(components.has(name)).toBe(false);
  });

  test('each component has version, license, purl and the lockfile integrity as SHA-512', () => {
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { integrity?: string }> };
    for (const pkg of bundledPackages(REPO_ROOT, inputs)) {
      const json = JSON.parse(sbomJson({ name: 'x', version: '1', license: 'MIT' }, [pkg])) as { components: CdxComponent[] };
      const [component] = json.components;
      expect(component?.version).toBe(pkg.version);
      expect(component?.licenses?.length).toBe(1);
      expect(component?.purl).toBe(`pkg:npm/${pkg.name.replace('@', '%40')}@${pkg.version}`);
      const integrity = lock.packages[pkg.lockPath]?.integrity ?? '';
      expect(component?.hashes).toEqual([{ alg: 'SHA-512', content: Buffer.from(integrity.replace(/^sha512-/, ''), 'base64').toString('hex') }]);
    }
  });

  test('the same inputs give byte-identical JSON (no timestamp, no random serial number)', () => {
    const packages = bundledPackages(REPO_ROOT, inputs);
    const text = sbomJson({ name: 'external-context', version: '0.1.0', license: 'Apache-2.0' }, packages);
    expect(sbomJson({ name: 'external-context', version: '0.1.0', license: 'Apache-2.0' }, [...packages].reverse())).toBe(text);
    expect(text).not.toContain('serialNumber');
    expect(text).not.toContain('timestamp');
    expect(JSON.parse(text)).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6' });
  });
});

let compiledValidator: ((data: unknown) => boolean) | undefined;

/** The CycloneDX 1.6 JSON schema shipped with @cyclonedx/cyclonedx-library (formats not checked), compiled once. */
function cyclonedxValidator(): (data: unknown) => boolean {
  compiledValidator ??= compileCyclonedxValidator();
  return compiledValidator;
}

function compileCyclonedxValidator(): (data: unknown) => boolean {
  const dir = join(REPO_ROOT, 'node_modules', '@cyclonedx', 'cyclonedx-library', 'res', 'schema');
  const load = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, validateFormats: false });
  for (const name of ['spdx.SNAPSHOT.schema.json', 'jsf-0.82.SNAPSHOT.schema.json', 'cryptography-defs.SNAPSHOT.schema.json']) {
    const { $id: _, ...schema } = load(name);
    ajv.addSchema(schema, `http://cyclonedx.org/schema/${name}`);
  }
  const validate = ajv.compile(load('bom-1.6.SNAPSHOT.schema.json'));
  return (data) => validate(data);
}

test('the SBOM is valid CycloneDX 1.6 JSON', () => {
  const text = sbomJson({ name: 'external-context', version: '0.1.0', license: 'Apache-2.0' }, bundledPackages(REPO_ROOT, inputs));
  expect(cyclonedxValidator()(JSON.parse(text))).toBe(true);
});

/** The native components the SBOM must name: what this Bun (the compiling one) reports. */
function reportedNatives(target: (typeof CROSS_TARGETS)[number]['bunTarget']): string[] {
  return Object.keys(process.versions)
    .filter((name) => !Object.hasOwn(NOT_NATIVE_COMPONENTS, name) || (name === 'uv' && target === 'bun-windows-x64'))
    .sort();
}

/** Checks one executable's SBOM: its runtime with the lockfile hash, and every native component. */
function expectRuntimeListed(json: { components: CdxComponent[] }, target: (typeof CROSS_TARGETS)[number]['bunTarget']): void {
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { integrity?: string; version?: string }> };
  const packageName = BUN_RUNTIME_PACKAGES[target];
  const runtimes = json.components.filter((component) => fullName(component) === packageName);
  expect(runtimes.length).toBe(1);
  const [runtime] = runtimes;
  const entry = lock.packages[`node_modules/${packageName}`];
  expect(runtime?.version).toBe(process.versions.bun);
  expect(entry?.version).toBe(process.versions.bun);
  expect(runtime?.hashes).toEqual([{ alg: 'SHA-512', content: Buffer.from((entry?.integrity ?? '').replace(/^sha512-/, ''), 'base64').toString('hex') }]);
  const natives = new Map((runtime?.components ?? []).map((component) => [component.name, component]));
  expect([...natives.keys()].sort()).toEqual(reportedNatives(target));
  for (const [name, component] of natives) {
    const reported = process.versions[name as keyof typeof process.versions] as string;
    expect(component.version).toBe(reported);
    const vcs = component.externalReferences?.find((reference) => reference.type === 'vcs')?.url ?? '';
    // A library known only by its commit points at that commit in its repository.
    if (/^[0-9a-f]{40}$/.test(reported)) {
      expect(vcs).toMatch(new RegExp(`^https://github\\.com/[^/]+/[^/]+/tree/${reported}$`));
      expect(component.purl).toEndWith(`@${reported}`);
    } else {
      expect(vcs).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+$/);
    }
  }
}

describe('the runtime inside each executable (issue 25 §2)', () => {
  test('nativeComponents() lists every process.versions entry that is code, and libuv only on Windows', () => {
    expect(nativeComponents(process.versions, 'bun-linux-x64').map((native) => native.name)).toEqual(reportedNatives('bun-linux-x64'));
    expect(nativeComponents(process.versions, 'bun-windows-x64').map((native) => native.name)).toContain('uv');
    // The ones a scanner needs most are among them.
    for (const name of ['boringssl', 'sqlite', 'zlib', 'zstd', 'webkit']) expect(reportedNatives('bun-linux-x64')).toContain(name);
  });

  test('nativeComponents() refuses an entry it does not know, so a new library cannot drop out', () => {
    expect(() => nativeComponents({ ...process.versions, brotli: '1.1.0' }, 'bun-linux-x64')).toThrow(BuildFailure);
  });

  test('runtimeSbom() refuses a lockfile whose runtime is another version than the compiling Bun', () => {
    expect(() => runtimeSbom(REPO_ROOT, 'bun-linux-x64', { ...process.versions, bun: '0.0.1' })).toThrow(BuildFailure);
  });

  for (const target of CROSS_TARGETS) {
    test(`the ${target.fileName} SBOM names ${BUN_RUNTIME_PACKAGES[target.bunTarget]} with its lockfile hash and every native component, and is valid CycloneDX 1.6`, () => {
      const text = sbomJson({ name: 'external-context', version: '0.1.0', license: 'Apache-2.0' }, bundledPackages(REPO_ROOT, inputs), runtimeSbom(REPO_ROOT, target.bunTarget, process.versions));
      const json = JSON.parse(text) as { components: CdxComponent[] };
      expectRuntimeListed(json, target.bunTarget);
      expect(cyclonedxValidator()(json)).toBe(true);
    });
  }
});

test('imageSbomJson() is valid CycloneDX 1.6: the container, Debian libc6 with its purl and hash, the executable with its hash', () => {
  const json = JSON.parse(
    imageSbomJson({
      name: 'external-context',
      version: '0.1.0',
      license: 'Apache-2.0',
      architecture: 'arm64',
      libcVersion: '2.36-9+deb12u14',
      libcDebSha256: 'a'.repeat(64),
      executableSha256: 'b'.repeat(64),
      executablePath: '/usr/local/bin/external-context',
      executableSbomPath: '/usr/share/doc/external-context/sbom.cdx.json',
    }),
  ) as { metadata: { component: { type: string } }; components: CdxComponent[] };
  expect(cyclonedxValidator()(json)).toBe(true);
  expect(json.metadata.component.type).toBe('container');
  expect(json.components.map((component) => [component.name, component.purl ?? '(none)', component.hashes?.[0]?.content ?? '']).sort()).toEqual([
    ['external-context', '(none)', 'b'.repeat(64)],
    ['libc6', 'pkg:deb/debian/libc6@2.36-9%2Bdeb12u14?arch=arm64&distro=debian-12', 'a'.repeat(64)],
  ]);
});

const SBOM_FILE = join(REPO_ROOT, 'dist', SBOM_NAME);
const tier = { name: 'SBOM of build:all', missing: existsSync(SBOM_FILE) ? undefined : `dist/${SBOM_NAME} not built`, remedy: 'run npm run build:all' };
registerToolGate(tier);

describe.skipIf(tier.missing !== undefined)('dist/external-context.cdx.json', () => {
  test("lists the packages of this tree's metafiles and is covered by SHA256SUMS", () => {
    const written = JSON.parse(readFileSync(SBOM_FILE, 'utf8')) as { components: CdxComponent[] };
    expect(written.components.map(fullName).sort()).toEqual(
      bundledPackages(REPO_ROOT, inputs)
        .map((pkg) => pkg.name)
        .sort(),
    );
    expect(readFileSync(join(REPO_ROOT, 'dist', 'SHA256SUMS'), 'utf8')).toMatch(new RegExp(`^[0-9a-f]{64}  ${SBOM_NAME.replace(/\./g, '\\.')}$`, 'm'));
  });

  test('every executable has its own SBOM naming its runtime and every native component, covered by SHA256SUMS', () => {
    const sums = readFileSync(join(REPO_ROOT, 'dist', 'SHA256SUMS'), 'utf8');
    for (const target of CROSS_TARGETS) {
      const name = executableSbomName(target.fileName);
      expectRuntimeListed(JSON.parse(readFileSync(join(REPO_ROOT, 'dist', name), 'utf8')) as { components: CdxComponent[] }, target.bunTarget);
      expect(sums).toMatch(new RegExp(`^[0-9a-f]{64}  ${name.replace(/\./g, '\\.')}$`, 'm'));
    }
  });
});
