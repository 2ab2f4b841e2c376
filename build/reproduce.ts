// `npm run test:reproducible` (`bun build/reproduce.ts [--keep-cache] [--image]`): proves that a release
// can be rebuilt byte for byte (docs/design/README.md, "Releases"). Clones the committed HEAD
// twice, into folders of different names and path lengths, and runs `build:all` in each: the
// first with TZ=UTC, the second later, with TZ=Asia/Tokyo, another TMPDIR and (unless
// --keep-cache) an empty Bun install cache, so the cross-compile runtimes are downloaded again.
// Both use this checkout's node_modules (the same lockfile install). Exits 0 when the two
// SHA256SUMS are identical; otherwise prints, per differing file, the first differing offsets
// and exits 1. Uncommitted changes are not part of what is compared. `--image` also runs
// `build:image` in each checkout, so the image archive's line in SHA256SUMS is compared too
// (it needs umoci and the libc6 packages of build/image-rootfs.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHECKSUMS_NAME, ROOT_DIR } from './targets.ts';

/** One build of the same commit in its own checkout. */
interface Build {
  readonly dir: string;
  readonly env: Record<string, string>;
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, [...args], { cwd, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

function checkout(base: string, name: string, commit: string): string {
  const dir = path.join(base, name);
  run('git', ['clone', '--quiet', '--no-checkout', ROOT_DIR, dir], base);
  run('git', ['checkout', '--quiet', '--detach', commit], dir);
  symlinkSync(realpathSync(path.join(ROOT_DIR, 'node_modules')), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Offsets (and byte values) where two files first differ, like `cmp -l | head`. */
function firstDifferences(a: string, b: string, limit = 8): string[] {
  const left = readFileSync(a);
  const right = readFileSync(b);
  const lines: string[] = [];
  if (left.length !== right.length) lines.push(`sizes differ: ${left.length} and ${right.length} bytes`);
  for (let index = 0; index < Math.min(left.length, right.length) && lines.length < limit; index++) {
    if (left[index] !== right[index]) {
      const context = left
        .subarray(Math.max(0, index - 24), index + 24)
        .toString('latin1')
        .replace(/[^\x20-\x7e]/g, '.');
      lines.push(`offset ${index}: ${left[index]} vs ${right[index]}  "${context}"`);
    }
  }
  return lines;
}

function main(args: readonly string[]): number {
  if (args.some((arg) => arg !== '--keep-cache' && arg !== '--image')) {
    console.error('[reproduce] Usage: bun build/reproduce.ts [--keep-cache] [--image]');
    return 2;
  }
  const startedMs = performance.now();
  const commit = run('git', ['rev-parse', 'HEAD'], ROOT_DIR).trim();
  if (run('git', ['status', '--porcelain', '--untracked-files=no'], ROOT_DIR).trim() !== '') {
    console.log('[reproduce] note: uncommitted changes are not part of the comparison; HEAD is built.');
  }
  const base = mkdtempSync(path.join(tmpdir(), 'ec-reproduce-'));
  try {
    const tmpA = path.join(base, 'tmp-a');
    const tmpB = path.join(base, 'tmp-b-other');
    const cacheB = path.join(base, 'bun-cache-b');
    for (const dir of [tmpA, tmpB, cacheB]) mkdirSync(dir);
    const builds: Build[] = [
      { dir: checkout(base, 'a', commit), env: { TZ: 'UTC', TMPDIR: tmpA } },
      {
        dir: checkout(base, 'second-checkout-with-a-longer-path', commit),
        env: { TZ: 'Asia/Tokyo', TMPDIR: tmpB, ...(args.includes('--keep-cache') ? {} : { BUN_INSTALL_CACHE_DIR: cacheB }) },
      },
    ];
    for (const build of builds) {
      const buildStartedMs = performance.now();
      run(process.execPath, ['build/build.ts', '--all'], build.dir, { ...process.env, ...build.env });
      if (args.includes('--image')) run(process.execPath, ['build/image.ts'], build.dir, { ...process.env, ...build.env });
      console.log(`[reproduce] built ${commit.slice(0, 12)} in ${build.dir} (${JSON.stringify(build.env)}) in ${((performance.now() - buildStartedMs) / 1000).toFixed(1)} s`);
    }
    const [first, second] = builds.map((build) => readFileSync(path.join(build.dir, 'dist', CHECKSUMS_NAME), 'utf8'));
    if (first === second) {
      process.stdout.write(first ?? '');
      console.log(`[reproduce] identical SHA256SUMS; ${((performance.now() - startedMs) / 1000).toFixed(1)} s in all`);
      return 0;
    }
    console.error('[reproduce] the two builds differ:');
    const secondLines = new Set((second ?? '').split('\n'));
    for (const line of (first ?? '').split('\n')) {
      if (line === '' || secondLines.has(line)) continue;
      const name = line.slice(66);
      console.error(`  ${name}`);
      for (const difference of firstDifferences(path.join(builds[0]?.dir ?? '', 'dist', name), path.join(builds[1]?.dir ?? '', 'dist', name))) {
        console.error(`    ${difference}`);
      }
    }
    return 1;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
