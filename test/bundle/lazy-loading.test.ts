// The bundler keeps dispatch's import() lazy: a bundle built by build/bundle.ts with a marker in
// the MCP SDK's server and client entry modules shows that --help, --version, the Hooks and
// check never evaluate the SDK, and serve does (style.md, "hooks/ never imports the MCP SDK").
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import { bundleEsm } from '../../build/bundle.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { runProcess } from '../support/run-process.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { nodeLauncher } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';

const LAZY = proves('lazy-loading', ['node-bundle']);
const MARKER = 'EC-TEST-MCP-SDK-EVALUATED';

/** Prepends a stderr marker to the SDK's server and client entry modules. */
const sdkMarker: Bun.BunPlugin = {
  name: 'mcp-sdk-marker',
  setup(build) {
    build.onLoad({ filter: /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/](server|client)[\\/]index\.js$/ }, async (args) => ({
      contents: `process.stderr.write(${JSON.stringify(`${MARKER}\n`)});\n${await Bun.file(args.path).text()}`,
      loader: 'js',
    }));
  },
};

describe(`dist bundle lazy loading ${LAZY('node-bundle')}`, () => {
  let bundle: string;
  let config: string;

  beforeAll(async () => {
    const dir = await makeTempDir('ec-lazy-bundle-');
    bundle = path.join(dir.path, 'marked.mjs');
    await bundleEsm(bundle, undefined, { plugins: [sdkMarker] });
    config = await writeConfigFile({
      version: 1,
      provider: { type: 'generic-http-search-v1', baseUrl: 'http://127.0.0.1:9', tokenEnv: 'EC_LAZY_TOKEN' },
    });
  });
  afterAll(removeTempDirs);

  const run = (args: readonly string[], stdin?: string) =>
    runProcess(nodeLauncher().command, [bundle, ...args], { env: cleanEnv({ EC_LAZY_TOKEN: 'lazy-token' }), ...(stdin === undefined ? {} : { stdin }) });

  const withoutSdk: readonly (readonly string[])[] = [['--help'], ['--version'], ['hook', 'auto-recall'], ['hook', 'write-confirmation'], ['check']];
  for (const args of withoutSdk) {
    test(`\`${args.join(' ')}\` never evaluates the MCP SDK`, async () => {
      const result = await run(args[0] === 'check' ? [...args, '--config', config] : args, '{}');
      expect(result.stderr).not.toContain(MARKER);
    });
  }

  test('`serve` evaluates the MCP SDK (the marker works)', async () => {
    const result = await run(['serve', '--config', config], '');
    expect(result.stderr).toContain(MARKER);
  });
});
