// The Node.js the agent CLI tiers run on (agents.md §4, qwen-client.md §1): Node.js 24 LTS from
// the `test/fixtures/agent-node` fixture, not the machine's Node.js. Qwen Code 0.24.4 declares
// `node >=22.0.0`, and Node.js 22.1 and later keep a module compile cache
// (`NODE_COMPILE_CACHE`): the agents' bundles (Qwen Code's alone is 54 MB of ES modules) are
// compiled once per fixture install instead of on every run, which was about a quarter of each
// run's CPU on Node.js 20 (650 ms of 2.5-3 s). The product's own Node.js bundle is still tested
// on the machine's Node.js (`findNode()`), the oldest Node.js it supports.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FixtureTier } from '../support/fixture-tier.ts';
import { REPO_ROOT } from '../support/paths.ts';

/** The fixture folder, relative to the repository (for messages). */
export const AGENT_NODE_FOLDER = 'test/fixtures/agent-node';
/** The pinned Node.js version (the fixture's package.json). */
export const AGENT_NODE_VERSION = '24.22.3';

const FIXTURE_DIR = join(REPO_ROOT, AGENT_NODE_FOLDER);
/** `node_modules/.bin` of the fixture: holds only `node`, linked to this platform's package. */
const BIN_DIR = join(FIXTURE_DIR, 'node_modules', '.bin');
/** The compile cache, inside `node_modules` so that `npm ci` starts it afresh with the binary. */
const COMPILE_CACHE_DIR = join(FIXTURE_DIR, 'node_modules', '.compile-cache');

/**
 * Why the fixture cannot give this platform a Node.js, or `undefined` where it can. The fixture
 * depends on one `node-<platform>-<arch>` package per platform it supports (Linux x64 and arm64):
 * elsewhere `npm run fixtures` installs none of them, so the message must not send the reader
 * there.
 *
 * @param platform A `process.platform` value (default: this process's).
 * @param arch A `process.arch` value (default: this process's).
 * @returns The reason line for the fixture gate, or `undefined` on a supported platform.
 */
export function agentNodeUnsupported(platform: string = process.platform, arch: string = process.arch): string | undefined {
  const manifest = JSON.parse(readFileSync(join(FIXTURE_DIR, 'package.json'), 'utf8')) as { optionalDependencies?: Record<string, string> };
  const supported = Object.keys(manifest.optionalDependencies ?? {}).map((name) => name.replace(/^node-/u, ''));
  if (supported.includes(`${platform}-${arch}`)) return undefined;
  return `${AGENT_NODE_FOLDER} has Node.js builds for ${supported.join(', ')} only, not ${platform}-${arch}: the agent tiers run on those platforms`;
}

/** Whether this platform's Node.js package is installed at the pinned version. */
export function agentNodeInstalled(): boolean {
  const manifest = join(FIXTURE_DIR, 'node_modules', `node-${process.platform}-${process.arch}`, 'package.json');
  if (!existsSync(manifest) || !existsSync(join(BIN_DIR, 'node'))) return false;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version === AGENT_NODE_VERSION;
}

/**
 * An agent tier that also needs the agent Node.js: installed only when both are, and naming
 * whichever fixture is missing (the agent's own first); on a platform the fixture has no build
 * for, saying so instead of sending the reader to `npm run fixtures`.
 */
export function withAgentNode(tier: FixtureTier): FixtureTier {
  if (!tier.installed) return tier;
  if (agentNodeInstalled()) return tier;
  const unsupported = agentNodeUnsupported();
  return unsupported === undefined ? { installed: false, folder: AGENT_NODE_FOLDER } : { installed: false, folder: AGENT_NODE_FOLDER, reason: unsupported };
}

/**
 * The environment entries that put an agent CLI on the agent Node.js: `PATH` with the
 * fixture's `node` first (the CLIs start with `#!/usr/bin/env node` and re-spawn
 * `process.execPath`), then `/usr/bin:/bin`; and `NODE_COMPILE_CACHE`.
 */
export function agentNodeEnv(): { readonly PATH: string; readonly NODE_COMPILE_CACHE: string } {
  return { PATH: `${BIN_DIR}:/usr/bin:/bin`, NODE_COMPILE_CACHE: COMPILE_CACHE_DIR };
}
