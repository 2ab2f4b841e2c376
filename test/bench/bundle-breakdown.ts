// The bundles' start-up breakdown of `npm run bench` (issue 18, item 4): programs derived from
// dist/external-context.mjs that each add one part of the bundle's start-up, timed under Node.js
// and Deno in the same interleaved rounds as each runtime's floor (`node -e 0`, `deno eval 0`):
// an empty ES module (the runtime's module loader), one `node:fs` import, the bundle's own
// top-level `node:` imports, and the whole bundle exiting before its first statement runs
// (imports plus parsing and compiling the file; the bundle's code is not evaluated).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ms } from './bench-table.ts';
import { cpuKey } from './interleaved.ts';
import { median } from './stats.ts';

/** One derived program: its sample key suffix and what it shows. */
export interface BundleStep {
  readonly key: string;
  readonly label: string;
  readonly file: string;
}

/** The `import … from "node:…"` statements a minified bundle starts with (Bun hoists them all). */
const BUILTIN_IMPORT = /import(?:\{[^}]*\}|[A-Za-z_$][\w$]*|\*as [A-Za-z_$][\w$]*)from"node:[a-z_/]+";?/g;

/**
 * Writes the derived programs next to each other in `dir`.
 *
 * @param bundle The product's bundle (its first line is the shebang).
 * @returns The steps in the order printed.
 */
export function writeBundleSteps(dir: string, bundle: string): BundleStep[] {
  const source = readFileSync(bundle, 'utf8');
  const newline = source.indexOf('\n');
  const imports = source.match(BUILTIN_IMPORT) ?? [];
  const steps: [string, string, string][] = [
    ['empty', 'an empty ES module (module loader)', ''],
    ['fs', 'one import of node:fs', 'import { writeSync } from "node:fs";\nwriteSync(1, "");\n'],
    ['imports', `the bundle's ${imports.length} top-level node: imports`, `${imports.join('\n')}\n`],
    ['parse', 'the whole bundle, exiting before its first statement', `${source.slice(0, newline + 1)}process.exit(0);${source.slice(newline + 1)}`],
  ];
  return steps.map(([key, label, text]) => {
    const file = path.join(dir, `bundle-${key}.mjs`);
    writeFileSync(file, text);
    return { key, label, file };
  });
}

/**
 * Prints, per runtime, each step's median and its ratio to the runtime's floor, then the
 * bundle's --version and write-confirmation Hook from the same rounds.
 *
 * @param samples All start-up samples; keys `<runtime>Floor`, `<runtime>Bundle-<step>`, `<runtime>Version`, `<runtime>WriteConfirmation`.
 */
export function printBundleBreakdown(samples: ReadonlyMap<string, number[]>, steps: readonly BundleStep[]): void {
  for (const [runtime, floorName] of [
    ['node', 'node -e 0'],
    ['deno', 'deno eval 0'],
  ] as const) {
    const floor = samples.get(`${runtime}Floor`);
    if (floor === undefined) continue;
    const floorMs = median(floor);
    const floorCpu = samples.get(cpuKey(`${runtime}Floor`));
    const floorCpuMs = floorCpu === undefined || floorCpu.length === 0 ? undefined : median(floorCpu);
    console.log(`\nBundle start-up under ${runtime === 'node' ? 'Node.js' : 'Deno'} (same rounds; wall and CPU, each with its ratio to ${floorName})`);
    const rows: [string, string][] = [
      [floorName, `${runtime}Floor`],
      ...steps.map((step): [string, string] => [step.label, `${runtime}Bundle-${step.key}`]),
      ['bundle --version', `${runtime}Version`],
      ['bundle write-confirmation Hook', `${runtime}WriteConfirmation`],
    ];
    for (const [label, key] of rows) {
      const values = samples.get(key);
      if (values === undefined) continue;
      const value = median(values);
      const cpu = samples.get(cpuKey(key));
      const cpuText = cpu === undefined || cpu.length === 0 || floorCpuMs === undefined ? '' : `   CPU ${ms(median(cpu)).padStart(8)}  ${(median(cpu) / floorCpuMs).toFixed(2)}×`;
      console.log(`  ${label.padEnd(56)} ${ms(value).padStart(8)}  ${(value / floorMs).toFixed(2)}×${cpuText}`);
    }
  }
}
