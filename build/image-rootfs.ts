// The root filesystem of one container image (issue 30 §4): the linux executable, exactly the
// glibc files it loads, taken from Debian's libc6 package of the image's architecture
// (`apt-get download`, `dpkg-deb -x`), and the files a scanner reads: the executable's SBOM, the
// package's dpkg stanza (the distroless `status.d` layout) and its copyright. No shell, no
// package manager. Every file and folder gets the mtime SOURCE_DATE_EPOCH names.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BuildFailure } from './build-failure.ts';
import { imageSbomJson } from './image-sbom.ts';

/** One image platform: its executable and where its glibc lives. */
export interface ImagePlatform {
  /** OCI architecture (and Debian architecture) name. */
  readonly architecture: 'amd64' | 'arm64';
  /** The executable under dist/. */
  readonly executable: string;
  /** The dynamic loader's path, as the executable's ELF interpreter names it. */
  readonly loader: string;
  /** The multiarch library folder. */
  readonly libraryDir: string;
}

/** The two linux images, in the order the archive lists them. */
export const IMAGE_PLATFORMS: readonly ImagePlatform[] = [
  { architecture: 'amd64', executable: 'external-context-linux-x64', loader: '/lib64/ld-linux-x86-64.so.2', libraryDir: '/lib/x86_64-linux-gnu' },
  { architecture: 'arm64', executable: 'external-context-linux-arm64', loader: '/lib/ld-linux-aarch64.so.1', libraryDir: '/lib/aarch64-linux-gnu' },
];

/** The shared libraries Bun's linux executables need (`ldd dist/external-context-linux-x64`). */
export const NEEDED_LIBRARIES: readonly string[] = ['libc.so.6', 'libdl.so.2', 'libm.so.6', 'libpthread.so.0'];

/** Where the executable lies in the image. */
export const IMAGE_EXECUTABLE = '/usr/local/bin/external-context';

/** Where the executable's SBOM lies in the image. */
export const IMAGE_SBOM = '/usr/share/doc/external-context/sbom.cdx.json';

/** Where the image's own SBOM (libc6 and the executable) lies in the image. */
export const IMAGE_LAYER_SBOM = '/usr/share/doc/external-context/image.cdx.json';

/** The numeric user and group the image runs as (distroless's `nonroot`). */
export const IMAGE_USER_ID = 65532;

/** What went into a root filesystem, for the labels. */
export interface RootfsFacts {
  /** The Debian libc6 version copied in. */
  readonly libcVersion: string;
}

/**
 * Runs a build tool; its stderr reaches the build failure's details.
 *
 * @throws {BuildFailure} When it cannot start or exits non-zero.
 */
export function runTool(command: string, args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): string {
  const result = spawnSync(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error !== undefined) {
    throw new BuildFailure(`image: ${command} cannot run (${result.error.message}); install the Debian packages umoci, dpkg and apt.`);
  }
  if (result.status !== 0) {
    throw new BuildFailure(`image: ${command} ${args.join(' ')} failed with exit code ${result.status ?? 'none'}.`, result.stderr.trim().split('\n').slice(-10));
  }
  return result.stdout;
}

/**
 * Fills `rootfs` for one platform.
 *
 * @param platform The platform.
 * @param distDir dist/ (holds the executable and its SBOM).
 * @param sbomFile The executable's SBOM under dist/.
 * @param workDir A private folder for the downloaded package.
 * @param rootfs The empty root folder to fill.
 * @param epochSeconds SOURCE_DATE_EPOCH.
 * @param product Our package's name, version and SPDX license, for the image SBOM.
 * @throws {BuildFailure} When the package cannot be fetched or lacks a needed file.
 */
export function buildRootfs(
  platform: ImagePlatform,
  distDir: string,
  sbomFile: string,
  workDir: string,
  rootfs: string,
  epochSeconds: number,
  product: { readonly name: string; readonly version: string; readonly license: string },
): RootfsFacts {
  // `apt-get download` needs the architecture known to dpkg (`dpkg --add-architecture arm64`);
  // it downloads the .deb only, nothing is installed.
  runTool('apt-get', ['-q', '-o', 'APT::Sandbox::User=root', 'download', `libc6:${platform.architecture}`], { cwd: workDir });
  const deb = readdirSync(workDir).find((name) => name.startsWith('libc6_') && name.endsWith(`_${platform.architecture}.deb`));
  if (deb === undefined) throw new BuildFailure(`image: apt-get download wrote no libc6 package for ${platform.architecture}.`);
  const debFile = path.join(workDir, deb);
  const extracted = path.join(workDir, 'libc6');
  runTool('dpkg-deb', ['-x', debFile, extracted]);
  const place = (from: string, to: string, mode: number): void => {
    mkdirSync(path.dirname(path.join(rootfs, to)), { recursive: true });
    copyFileSync(from, path.join(rootfs, to));
    chmodSync(path.join(rootfs, to), mode);
  };
  // dpkg-deb keeps the package's symbolic links (the loader in /lib64 points into /lib/...);
  // the image holds each file once, under the name the executable asks for.
  const fromPackage = (name: string): string => {
    try {
      return realpathSync(path.join(extracted, name));
    } catch (error) {
      throw new BuildFailure(`image: the libc6 ${platform.architecture} package has no ${name}.`, [], { cause: error });
    }
  };
  place(fromPackage(platform.loader), platform.loader, 0o755);
  for (const library of NEEDED_LIBRARIES) place(fromPackage(path.posix.join(platform.libraryDir, library)), path.posix.join(platform.libraryDir, library), 0o644);
  place(fromPackage('/usr/share/doc/libc6/copyright'), '/usr/share/doc/libc6/copyright', 0o644);
  const stanza = runTool('dpkg-deb', ['-f', debFile]);
  writeRootFile(rootfs, '/var/lib/dpkg/status.d/libc6', stanza.endsWith('\n') ? stanza : `${stanza}\n`);
  place(path.join(distDir, platform.executable), IMAGE_EXECUTABLE, 0o755);
  place(sbomFile, IMAGE_SBOM, 0o644);
  writeRootFile(rootfs, '/etc/passwd', `nonroot:x:${IMAGE_USER_ID}:${IMAGE_USER_ID}:nonroot:/nonexistent:/sbin/nologin\n`);
  writeRootFile(rootfs, '/etc/group', `nonroot:x:${IMAGE_USER_ID}:\n`);
  mkdirSync(path.join(rootfs, 'tmp'), { recursive: true });
  chmodSync(path.join(rootfs, 'tmp'), 0o1777);
  const version = /^Version: (.+)$/m.exec(stanza)?.[1];
  if (version === undefined) throw new BuildFailure(`image: the libc6 ${platform.architecture} package names no version.`);
  const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
  const imageSbom = imageSbomJson({
    ...product,
    architecture: platform.architecture,
    libcVersion: version,
    libcDebSha256: sha256(debFile),
    executableSha256: sha256(path.join(distDir, platform.executable)),
    executablePath: IMAGE_EXECUTABLE,
    executableSbomPath: IMAGE_SBOM,
  });
  writeRootFile(rootfs, IMAGE_LAYER_SBOM, imageSbom);
  setTimes(rootfs, epochSeconds);
  return { libcVersion: version };
}

function writeRootFile(rootfs: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(rootfs, file)), { recursive: true });
  writeFileSync(path.join(rootfs, file), text, { mode: 0o644 });
  chmodSync(path.join(rootfs, file), 0o644);
}

/** Sets every mtime below `dir` (children first, then the folder) to the epoch. */
function setTimes(dir: string, epochSeconds: number): void {
  for (const name of readdirSync(dir)) {
    const entry = path.join(dir, name);
    if (lstatSync(entry).isDirectory()) {
      chmodSync(entry, entry.endsWith(`${path.sep}tmp`) && path.dirname(entry) === dir ? 0o1777 : 0o755);
      setTimes(entry, epochSeconds);
    } else {
      utimesSync(entry, epochSeconds, epochSeconds);
    }
  }
  utimesSync(dir, epochSeconds, epochSeconds);
}
