// `npm run fuzz`: exploration, never part of `npm test`. Runs every fast-check property of the
// suite (each test file that imports fast-check) once per seed, in one `bun test` process per
// seed, and reports every failing seed with the command that replays it (test/support/fuzz-config.ts).
// The process-level samples (tests named "… spawns)") draw a fixed sample and are left out.
//
//   npm run fuzz [-- --seeds <n>] [-- --first <seed>]
//
// --seeds: how many seeds (default 50); --first: the first seed (default random), the others
// follow it one by one. Exit code 0 when every seed passes, 1 when one fails, 2 on bad usage.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dir, '..', '..');
const USAGE = 'usage: npm run fuzz -- [--seeds <n>] [--first <seed>]';

/** Every `*.test.ts` file under test/ that imports fast-check, relative to the repository, sorted. */
function propertyFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'fixtures') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts') && readFileSync(path, 'utf8').includes("from 'fast-check'")) found.push(relative(root, path));
    }
  };
  walk(join(root, 'test'));
  return found.sort();
}

function fail(message: string): never {
  process.stderr.write(`fuzz: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function readCount(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > 0x7fffffff) fail(`--${name} must be an integer from ${min} to 2147483647, not ${JSON.stringify(value)}`);
  return Number(value);
}

let values: { seeds?: string | undefined; first?: string | undefined };
try {
  ({ values } = parseArgs({ args: process.argv.slice(2), options: { seeds: { type: 'string' }, first: { type: 'string' } }, strict: true }));
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const seeds = readCount(values.seeds, 'seeds', 50, 1);
const first = readCount(values.first, 'first', crypto.getRandomValues(new Uint32Array(1))[0]! % (0x7fffffff - seeds), 0);
if (first + seeds - 1 > 0x7fffffff) fail('--first plus --seeds passes 2147483647');

const files = propertyFiles();
process.stdout.write(`fuzz: ${files.length} files, seeds ${first}…${first + seeds - 1}\n`);
const started = performance.now();
const failing: { seed: number; tests: string[]; replays: string[] }[] = [];
let properties = 0;
for (let seed = first; seed < first + seeds; seed += 1) {
  const t0 = performance.now();
  const child = Bun.spawnSync([process.execPath, 'test', ...files, '--timeout', '60000', '-t', '^(?!.*spawns\\)$)'], {
    cwd: root,
    env: { ...process.env, FUZZ_SEED: String(seed) },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const output = `${child.stdout.toString()}\n${child.stderr.toString()}`;
  const tests = [
    ...new Set(
      output
        .split('\n')
        .filter((line) => line.startsWith('(fail) '))
        .map((line) => line.slice(7).replace(/ \[[0-9.]+m?s\]$/, '')),
    ),
  ];
  const replays = [
    ...new Set(
      output
        .split('\n')
        .filter((line) => line.startsWith('Replay: '))
        .map((line) => line.slice(8)),
    ),
  ];
  const passed = Number(/^\s*(\d+) pass$/m.exec(output)?.[1] ?? 0);
  properties += passed + tests.length;
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  if (child.exitCode === 0 && tests.length === 0) {
    process.stdout.write(`seed ${seed}: pass (${passed} tests, ${seconds} s)\n`);
    continue;
  }
  failing.push({ seed, tests, replays });
  process.stdout.write(`seed ${seed}: FAIL (exit ${child.exitCode}, ${seconds} s)\n`);
  for (const name of tests) process.stdout.write(`  (fail) ${name}\n`);
  for (const replay of replays.length > 0 ? replays : [`FUZZ_SEED=${seed} npx bun test ${files.join(' ')} --timeout 60000`]) process.stdout.write(`  replay: ${replay}\n`);
}
const total = ((performance.now() - started) / 1000).toFixed(0);
process.stdout.write(`fuzz: ${seeds} seeds, ${failing.length} failing, ${properties} test runs, ${total} s\n`);
for (const entry of failing) process.stdout.write(`failing seed ${entry.seed}: ${entry.tests.join('; ') || 'the run failed (see above)'}\n`);
process.exit(failing.length === 0 ? 0 : 1);
