// The shared set-up of the process benchmarks: one loopback Generic HTTP fake, a version 1
// configuration for `serve` and a version 2 auto-recall configuration for the Hook, both
// reading the token from the environment.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const TOKEN = 'bench-token';
const TOKEN_ENV = 'BENCH_TOKEN';

/** A typical small answer: five short items with every optional field. */
export const TYPICAL_ITEMS: readonly unknown[] = Array.from({ length: 5 }, (_, index) => ({
  id: `doc-${index + 1}`,
  content: `Deploys to production need two approvals from the release team (rule ${index + 1}).`,
  title: `Release policy › Approvals ${index + 1}`,
  uri: `https://wiki.example/release-policy#approvals-${index + 1}`,
  score: 0.9 - index / 10,
  updatedAt: '2026-01-15T09:30:00Z',
}));

/** Everything a process benchmark needs. */
export interface BenchFixture {
  readonly fake: GenericHttpFake;
  /** The bearer token the fake accepts. */
  readonly token: string;
  /** Version 1 configuration (absolute path) for `serve`. */
  readonly serveConfig: string;
  /** Version 2 auto-recall configuration (absolute path) for `hook auto-recall`. */
  readonly hookConfig: string;
  /** The Hook's `cwd`: the configured repository root. */
  readonly repositoryRoot: string;
  /** A clean child environment carrying the token variable. */
  readonly env: Record<string, string>;
  /** The UserPromptSubmit stdin of one auto-recall run. */
  readonly hookStdin: string;
  /** Stops the fake and removes the temporary folder. */
  close(): Promise<void>;
}

/**
 * Starts the fake (answering `TYPICAL_ITEMS`) and writes both configurations.
 *
 * @returns The fixture; call `close()` when done.
 */
export async function startBenchFixture(): Promise<BenchFixture> {
  const fake = await startGenericHttpFake({ token: TOKEN, items: TYPICAL_ITEMS });
  const tmp = await makeTempDir('ec-bench-');
  const repositoryRoot = path.join(tmp.path, 'repo');
  await mkdir(repositoryRoot);
  const provider = { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: TOKEN_ENV };
  const serveConfig = await writeConfigFile({ version: 1, provider }, { dir: tmp.path, name: 'serve.json' });
  const hookConfig = await writeConfigFile({ version: 2, provider, autoRecall: { repositoryRoot } }, { dir: tmp.path, name: 'hook.json' });
  return {
    fake,
    token: TOKEN,
    serveConfig,
    hookConfig,
    repositoryRoot,
    env: cleanEnv({ [TOKEN_ENV]: TOKEN }),
    hookStdin: JSON.stringify({ hook_event_name: 'UserPromptSubmit', submitted_prompt: 'deployment approval policy', cwd: repositoryRoot }),
    async close() {
      await fake.close();
      await tmp.remove();
    },
  };
}
