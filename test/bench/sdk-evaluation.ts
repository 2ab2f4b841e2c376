// Which commands evaluate the MCP SDK's type module (`@modelcontextprotocol/sdk/types.js`, tens
// of ms of start-up): a bundle built by build/bundle.ts with a stderr marker in that module,
// run by Bun for each command. Only `serve` should (issue 10, "Known levers").
import { spawn } from 'node:child_process';
import path from 'node:path';
import { bundleEsm } from '../../build/bundle.ts';
import type { BenchFixture } from './bench-fixture.ts';
import { REPO_ROOT } from '../support/paths.ts';

const MARKER = 'EC-BENCH-SDK-TYPES-EVALUATED';

/** Prepends the marker to the SDK's type module. */
const typesMarker: Bun.BunPlugin = {
  name: 'sdk-types-marker',
  setup(build) {
    build.onLoad({ filter: /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]types\.js$/ }, async (args) => ({
      contents: `process.stderr.write(${JSON.stringify(`${MARKER}\n`)});\n${await Bun.file(args.path).text()}`,
      loader: 'js',
    }));
  },
};

/** One command and whether it evaluated the SDK's type module. */
export interface SdkEvaluation {
  readonly command: string;
  readonly evaluatesSdkTypes: boolean;
}

function runBundle(bundle: string, args: readonly string[], stdin: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, ...args], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', () => resolve(stderr));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

/**
 * Builds the marked bundle into `dir` and runs each command once with Bun (which, unlike
 * Node.js 20, also runs `corpus`). `serve` gets
 * stdin closed at once, so it starts, evaluates what it needs and exits at EOF.
 *
 * @param dir An existing temporary folder (the bundle and a corpus index go there).
 * @returns One row per command, in a fixed order.
 */
export async function checkSdkEvaluation(dir: string, fixture: BenchFixture): Promise<SdkEvaluation[]> {
  const bundle = path.join(dir, 'marked.mjs');
  await bundleEsm(bundle, undefined, { plugins: [typesMarker] });
  const cases: readonly (readonly [string, readonly string[], string])[] = [
    ['--help', ['--help'], ''],
    ['--version', ['--version'], ''],
    ['hook auto-recall (one real search)', ['hook', 'auto-recall', '--config', fixture.hookConfig], fixture.hookStdin],
    ['hook write-confirmation', ['hook', 'write-confirmation'], '{}'],
    ['hook settings auto-recall', ['hook', 'settings', 'auto-recall'], ''],
    ['check --search', ['check', '--config', fixture.serveConfig, '--search', 'deployment'], ''],
    ['probe --help', ['probe', '--help'], ''],
    ['corpus index', ['corpus', 'index', path.join(REPO_ROOT, 'README.md'), '--out', path.join(dir, 'index.sqlite')], ''],
    ['gateway --help', ['gateway', '--help'], ''],
    ['launch --help', ['launch', '--help'], ''],
    ['conformance --help', ['conformance', '--help'], ''],
    ['serve', ['serve', '--config', fixture.serveConfig], ''],
  ];
  const rows: SdkEvaluation[] = [];
  for (const [command, args, stdin] of cases) {
    const stderr = await runBundle(bundle, args, stdin, fixture.env);
    rows.push({ command, evaluatesSdkTypes: stderr.includes(MARKER) });
  }
  return rows;
}
