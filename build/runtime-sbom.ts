// The part of an executable's SBOM that is not npm code we bundle (issue 25 §2): the Bun runtime
// package `@oven/bun-<target>` that `bun build --compile` copies into every executable, with its
// lockfile integrity, and the native libraries inside it as the runtime reports them in
// `process.versions` at build time (BoringSSL, SQLite, zlib, zstd, …). A library known only by
// a commit gets a purl and an external reference naming that commit in its upstream repository.
import { Enums, Models } from '@cyclonedx/cyclonedx-library';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BuildFailure } from './build-failure.ts';
import type { CrossTarget } from './targets.ts';

/** The npm package Bun downloads for each compile target (the same name in package-lock.json). */
export const BUN_RUNTIME_PACKAGES: Readonly<Record<CrossTarget['bunTarget'], string>> = {
  'bun-linux-x64': '@oven/bun-linux-x64',
  'bun-linux-arm64': '@oven/bun-linux-aarch64',
  'bun-darwin-x64': '@oven/bun-darwin-x64',
  'bun-darwin-arm64': '@oven/bun-darwin-aarch64',
  'bun-windows-x64': '@oven/bun-windows-x64',
};

/**
 * Where each native component the runtime reports comes from: the GitHub repository Bun builds
 * it from (its own fork where it keeps one) and what it does in the runtime.
 */
export const NATIVE_SOURCES: Readonly<Record<string, { readonly repository: string; readonly description: string }>> = {
  ares: { repository: 'c-ares/c-ares', description: 'c-ares asynchronous DNS resolver' },
  boringssl: { repository: 'oven-sh/boringssl', description: 'BoringSSL: TLS and cryptography (fetch, node:crypto)' },
  icu: { repository: 'unicode-org/icu', description: 'ICU: Unicode and locale data for JavaScriptCore' },
  libarchive: { repository: 'libarchive/libarchive', description: 'libarchive: archive reading and writing' },
  libdeflate: { repository: 'ebiggers/libdeflate', description: 'libdeflate: fast DEFLATE and gzip' },
  llhttp: { repository: 'nodejs/llhttp', description: 'llhttp: HTTP/1.1 parser (node:http client)' },
  lolhtml: { repository: 'cloudflare/lol-html', description: 'lol-html: streaming HTML rewriter' },
  lshpack: { repository: 'litespeedtech/ls-hpack', description: 'ls-hpack: HTTP/2 header compression' },
  mimalloc: { repository: 'oven-sh/mimalloc', description: 'mimalloc: memory allocator' },
  picohttpparser: { repository: 'h2o/picohttpparser', description: 'picohttpparser: HTTP/1.1 parser (HTTP server)' },
  sqlite: { repository: 'sqlite/sqlite', description: 'SQLite: embedded database (bun:sqlite, the corpus index)' },
  tinycc: { repository: 'oven-sh/tinycc', description: 'TinyCC: C compiler behind bun:ffi' },
  usockets: { repository: 'oven-sh/bun', description: 'uSockets: event loop and sockets, kept in the Bun repository' },
  uwebsockets: { repository: 'oven-sh/bun', description: 'uWebSockets: HTTP and WebSocket server, kept in the Bun repository' },
  webkit: { repository: 'oven-sh/WebKit', description: 'WebKit JavaScriptCore: the JavaScript engine' },
  zig: { repository: 'oven-sh/zig', description: 'Zig standard library the runtime is compiled with' },
  zlib: { repository: 'cloudflare/zlib', description: 'zlib (Cloudflare fork): DEFLATE compression' },
  zstd: { repository: 'facebook/zstd', description: 'Zstandard compression' },
};

/**
 * `process.versions` entries that name no code inside the runtime, each with the reason. `uv`
 * is a component on Windows only, where Bun's event loop links libuv.
 */
export const NOT_NATIVE_COMPONENTS: Readonly<Record<string, string>> = {
  bun: 'the runtime itself, listed as its npm package',
  node: 'the Node.js API level Bun implements',
  openssl: "BoringSSL's OpenSSL API compatibility level",
  v8: 'the V8 API level of compatibility headers; JavaScriptCore runs the code',
  uv: 'the libuv API level outside Windows',
  napi: 'the Node-API level',
  modules: 'the native-module ABI level',
  unicode: 'the Unicode Standard version of the ICU data',
  typescript: 'the TypeScript language level the transpiler accepts',
};

/** One native library of the runtime, as the SBOM lists it. */
export interface NativeComponent {
  readonly name: string;
  /** The reported version, or the 40-hex-digit commit when that is all the runtime reports. */
  readonly version: string;
  readonly commit: boolean;
  readonly repository: string;
  readonly description: string;
}

/** The runtime of one executable: its npm package and the native libraries it reports. */
export interface RuntimeSbom {
  readonly packageName: string;
  readonly version: string;
  /** The lockfile's `integrity` (`sha512-<base64>`). */
  readonly integrity: string;
  readonly natives: readonly NativeComponent[];
}

/**
 * Lists the native components of a runtime's `process.versions`.
 *
 * @param versions `process.versions` of the Bun that compiles (the same release as every
 *   target's runtime: {@link runtimeSbom} checks the lockfile agrees).
 * @param target The compile target (Windows adds libuv).
 * @returns One entry per component, sorted by name.
 * @throws {BuildFailure} When the runtime reports an entry neither table knows: a new Bun
 *   release must not drop a library from the SBOM silently.
 */
export function nativeComponents(versions: Readonly<Record<string, string | undefined>>, target: CrossTarget['bunTarget']): NativeComponent[] {
  const natives: NativeComponent[] = [];
  for (const [name, version] of Object.entries(versions)) {
    if (version === undefined) continue;
    const libuv = name === 'uv' && target === 'bun-windows-x64';
    if (!libuv && Object.hasOwn(NOT_NATIVE_COMPONENTS, name)) continue;
    const source = libuv ? { repository: 'libuv/libuv', description: 'libuv: the event loop on Windows' } : NATIVE_SOURCES[name];
    if (source === undefined) {
      throw new BuildFailure(`sbom: the runtime reports process.versions.${name}, which build/runtime-sbom.ts does not know; add its source or its reason.`);
    }
    natives.push({ name, version, commit: /^[0-9a-f]{40}$/.test(version), ...source });
  }
  return natives.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * The runtime part of one executable's SBOM.
 *
 * @param rootDir Repository root (holds package-lock.json).
 * @param target The compile target.
 * @param versions `process.versions` of the compiling Bun.
 * @throws {BuildFailure} When the lockfile lacks the target's runtime package or lists another
 *   version than the compiling Bun's.
 */
export function runtimeSbom(rootDir: string, target: CrossTarget['bunTarget'], versions: Readonly<Record<string, string | undefined>>): RuntimeSbom {
  const lock = JSON.parse(readFileSync(path.join(rootDir, 'package-lock.json'), 'utf8')) as {
    packages?: Record<string, { version?: string; integrity?: string }>;
  };
  const packageName = BUN_RUNTIME_PACKAGES[target];
  const entry = lock.packages?.[`node_modules/${packageName}`];
  if (entry?.version === undefined || entry.integrity === undefined || entry.version !== versions['bun']) {
    throw new BuildFailure(
      `sbom: package-lock.json does not list ${packageName}@${versions['bun'] ?? '?'} with its integrity; keep the bun devDependency at the compiling Bun's version and run npm install.`,
    );
  }
  return { packageName, version: entry.version, integrity: entry.integrity, natives: nativeComponents(versions, target) };
}

/**
 * The runtime as a CycloneDX component, its native libraries nested inside it.
 *
 * @param runtime What {@link runtimeSbom} found.
 * @returns The component to add to the BOM's components.
 */
export function runtimeComponent(runtime: RuntimeSbom): Models.Component {
  const [group, name] = runtime.packageName.split('/') as [string, string];
  const hashes = new Models.HashDictionary();
  hashes.set(Enums.HashAlgorithm['SHA-512'], Buffer.from(runtime.integrity.replace(/^sha512-/, ''), 'base64').toString('hex'));
  const component = new Models.Component(Enums.ComponentType.Platform, name, {
    group,
    version: runtime.version,
    bomRef: `${runtime.packageName}@${runtime.version}`,
    purl: `pkg:npm/${encodeURIComponent(group)}/${name}@${runtime.version}`,
    description: 'Bun runtime copied into the executable by bun build --compile',
    hashes,
    licenses: new Models.LicenseRepository([new Models.SpdxLicense('MIT')]),
  });
  for (const native of runtime.natives) component.components.add(nativeComponent(native, runtime.version));
  return component;
}

function nativeComponent(native: NativeComponent, bunVersion: string): Models.Component {
  const repositoryUrl = `https://github.com/${native.repository}`;
  const references = new Models.ExternalReferenceRepository([
    native.commit
      ? new Models.ExternalReference(`${repositoryUrl}/tree/${native.version}`, Enums.ExternalReferenceType.VCS, { comment: 'the commit the runtime reports; it names no release' })
      : new Models.ExternalReference(repositoryUrl, Enums.ExternalReferenceType.VCS),
  ]);
  return new Models.Component(Enums.ComponentType.Library, native.name, {
    version: native.version,
    bomRef: `bun@${bunVersion}/${native.name}`,
    // A commit is a GitHub purl's version; a release number is only meaningful as a generic one.
    purl: native.commit ? `pkg:github/${native.repository.toLowerCase()}@${native.version}` : `pkg:generic/${native.name}@${native.version}`,
    description: native.description,
    externalReferences: references,
    properties: new Models.PropertyRepository([new Models.Property('bun:process.versions', native.name)]),
  });
}
