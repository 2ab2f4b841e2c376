// The folders of one isolated e2e session, shared by the Qwen Code and the other agent tiers:
// a fresh temporary folder with `home` and `work` below it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../support/temp-dir.ts';

/** Creates a temporary folder (removed by `removeTempDirs()`) with empty `home` and `work` folders in it. */
export async function makeSessionDirs(prefix: string): Promise<{ readonly dir: string; readonly home: string; readonly work: string }> {
  const { path: dir } = await makeTempDir(prefix);
  const home = join(dir, 'home');
  const work = join(dir, 'work');
  mkdirSync(home);
  mkdirSync(work);
  return { dir, home, work };
}
