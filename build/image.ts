// `npm run build:image` (issue 30 §4; docs/design/README.md, "Releases"): an OCI image archive
// of `serve --http` for linux amd64 and arm64 from the executables of `npm run build:all`,
// dist/external-context-oci.tar, one tag per architecture (`linux-amd64`, `linux-arm64`), and
// dist/SHA256SUMS rewritten to list it. The layout is built with umoci (Debian package umoci)
// and packed with GNU tar in the reproducible-builds.org form, so the same commit and the same
// Debian libc6 give the same archive: every time comes from SOURCE_DATE_EPOCH (default: the
// commit's time), no history entries, names sorted, owners numeric.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { BuildFailure } from './build-failure.ts';
import { writeChecksums } from './checksums.ts';
import { buildRootfs, IMAGE_EXECUTABLE, IMAGE_LAYER_SBOM, IMAGE_PLATFORMS, IMAGE_USER_ID, type ImagePlatform, runTool } from './image-rootfs.ts';
import { executableSbomName } from './sbom.ts';
import { CHECKSUMS_NAME, DIST_DIR, ROOT_DIR } from './targets.ts';

/** File name of the image archive under dist/. */
export const IMAGE_ARCHIVE_NAME = 'external-context-oci.tar';

/** The port the image declares (serve --http's default). */
export const IMAGE_PORT = 8788;

/** Where the image expects the configuration (QWEN_EXTERNAL_CONTEXT_CONFIG). */
export const IMAGE_CONFIG_PATH = '/etc/external-context/config.json';

/** The tag of one platform's image inside the archive. */
export function imageTag(platform: ImagePlatform): string {
  return `linux-${platform.architecture}`;
}

/** SOURCE_DATE_EPOCH from the environment, else the commit's time, else a failure. */
export function sourceDateEpoch(env: Readonly<Record<string, string | undefined>>, rootDir: string): number {
  const given = env['SOURCE_DATE_EPOCH'];
  if (given !== undefined) {
    if (!/^\d{1,12}$/.test(given)) throw new BuildFailure('image: SOURCE_DATE_EPOCH must be a whole number of seconds since 1970.');
    return Number(given);
  }
  const result = spawnSync('git', ['-C', rootDir, 'log', '-1', '--format=%ct'], { encoding: 'utf8' });
  const seconds = result.status === 0 ? result.stdout.trim() : '';
  if (!/^\d+$/.test(seconds)) throw new BuildFailure('image: set SOURCE_DATE_EPOCH; outside a git checkout there is no commit time to take.');
  return Number(seconds);
}

/**
 * Builds dist/external-context-oci.tar and adds it to dist/SHA256SUMS.
 *
 * @param log Receives one progress line per step.
 * @param env The environment (SOURCE_DATE_EPOCH).
 * @throws {BuildFailure} When build:all's outputs are missing or a tool fails.
 */
export async function buildImage(log: (line: string) => void, env: Readonly<Record<string, string | undefined>>): Promise<void> {
  for (const name of IMAGE_PLATFORMS.flatMap((platform) => [platform.executable, executableSbomName(platform.executable)]).concat(CHECKSUMS_NAME)) {
    if (!existsSync(path.join(DIST_DIR, name))) throw new BuildFailure(`image: dist/${name} is missing; run npm run build:all first.`);
  }
  const epochSeconds = sourceDateEpoch(env, ROOT_DIR);
  const created = new Date(epochSeconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
  const manifest = JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { name: string; version: string; description: string; license: string };
  const revision = spawnSync('git', ['-C', ROOT_DIR, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout?.trim() ?? '';
  const work = mkdtempSync(path.join(DIST_DIR, '.tmp-image-'));
  try {
    const layout = path.join(work, 'layout');
    runTool('umoci', ['init', '--layout', layout]);
    for (const platform of IMAGE_PLATFORMS) {
      const image = `${layout}:${imageTag(platform)}`;
      const rootfs = path.join(work, `rootfs-${platform.architecture}`);
      const downloads = path.join(work, `deb-${platform.architecture}`);
      mkdirSync(rootfs);
      mkdirSync(downloads);
      const facts = buildRootfs(platform, DIST_DIR, path.join(DIST_DIR, executableSbomName(platform.executable)), downloads, rootfs, epochSeconds, manifest);
      runTool('umoci', ['new', '--image', image]);
      runTool('umoci', ['insert', '--no-history', '--image', image, rootfs, '/']);
      const labels = {
        'org.opencontainers.image.title': manifest.name,
        'org.opencontainers.image.description': manifest.description,
        'org.opencontainers.image.version': manifest.version,
        'org.opencontainers.image.licenses': manifest.license,
        'org.opencontainers.image.created': created,
        ...(/^[0-9a-f]{40}$/.test(revision) ? { 'org.opencontainers.image.revision': revision } : {}),
        'org.opencontainers.image.ref.name': imageTag(platform),
        // Not OCI keys: where the image's SBOM lies inside (it names the executable's), and the
        // Debian libc6 the image carries.
        'external-context.sbom': IMAGE_LAYER_SBOM,
        'external-context.libc6': facts.libcVersion,
      };
      runTool('umoci', [
        'config',
        '--no-history',
        '--image',
        image,
        '--created',
        created,
        '--os',
        'linux',
        '--architecture',
        platform.architecture,
        '--config.user',
        `${IMAGE_USER_ID}:${IMAGE_USER_ID}`,
        '--config.workingdir',
        '/',
        '--config.entrypoint',
        IMAGE_EXECUTABLE,
        '--config.entrypoint',
        'serve',
        '--config.entrypoint',
        '--http',
        '--config.env',
        `QWEN_EXTERNAL_CONTEXT_CONFIG=${IMAGE_CONFIG_PATH}`,
        '--config.exposedports',
        `${IMAGE_PORT}/tcp`,
        '--config.stopsignal',
        'SIGTERM',
        ...Object.entries(labels).flatMap(([key, value]) => ['--config.label', `${key}=${value}`, '--manifest.annotation', `${key}=${value}`]),
      ]);
      log(`image    ${imageTag(platform)} (libc6 ${facts.libcVersion})`);
    }
    // Drop the intermediate manifests and configs of `new`, `insert` and `config`.
    runTool('umoci', ['gc', '--layout', layout]);
    const temporary = path.join(work, IMAGE_ARCHIVE_NAME);
    runTool('tar', [
      '--sort=name',
      `--mtime=@${epochSeconds}`,
      '--clamp-mtime',
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      '--mode=u+rw,go+r,go-w',
      '--format=posix',
      '--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime',
      '-C',
      layout,
      '-cf',
      temporary,
      '.',
    ]);
    renameSync(temporary, path.join(DIST_DIR, IMAGE_ARCHIVE_NAME));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const listed = readFileSync(path.join(DIST_DIR, CHECKSUMS_NAME), 'utf8')
    .split('\n')
    .map((line) => /^[0-9a-f]{64} {2}(.+)$/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== IMAGE_ARCHIVE_NAME);
  await writeChecksums(DIST_DIR, [...listed, IMAGE_ARCHIVE_NAME], CHECKSUMS_NAME);
  log(`checksum ${CHECKSUMS_NAME} lists ${IMAGE_ARCHIVE_NAME}`);
}

if (import.meta.main) {
  try {
    await buildImage((line) => console.log(line), process.env);
  } catch (error) {
    if (!(error instanceof BuildFailure)) throw error;
    console.error(`[build:image] ${error.message}`);
    for (const line of error.details) console.error(`  ${line}`);
    process.exit(1);
  }
}
