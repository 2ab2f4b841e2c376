// The host tools a tier looks for come from one table, .ci/tools.tsv (issue 25 §1): .ci/install-tools
// installs the Debian package of every missing row and .ci/fresh-root-check proves that install on
// a Debian 12 root that has none of them. A tier asks here whether its rows are present, so it
// cannot look for a tool that CI does not install (wine64 installed no `wine`, and the Windows
// tier failed on every fresh machine).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';
import type { ToolTier } from './tool-tier.ts';

/** The table's path. */
export const TOOLS_TABLE = join(REPO_ROOT, '.ci', 'tools.tsv');

/** One row of .ci/tools.tsv. */
export interface ToolRow {
  /** The tier that looks for it (a name used with {@link hostToolTier}). */
  readonly tier: string;
  /** `command`: a name on PATH; `file`: an absolute path. */
  readonly kind: 'command' | 'file';
  /** The command name or the absolute path. */
  readonly name: string;
  /** The Debian package that provides it. */
  readonly package: string;
}

/**
 * Reads .ci/tools.tsv: tab-separated rows after a header line, `#` lines are comments.
 *
 * @returns Every row, in the table's order.
 * @throws {Error} On a row without four columns or with an unknown kind.
 */
export function toolRows(text: string = readFileSync(TOOLS_TABLE, 'utf8')): ToolRow[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('tier\t'))
    .map((line) => {
      const [tier, kind, name, pkg, ...rest] = line.split('\t');
      if (tier === undefined || name === undefined || pkg === undefined || rest.length > 0 || pkg === '')
        throw new Error(`.ci/tools.tsv: a row needs four tab-separated columns: ${JSON.stringify(line)}`);
      if (kind !== 'command' && kind !== 'file') throw new Error(`.ci/tools.tsv: kind must be command or file: ${JSON.stringify(line)}`);
      if (kind === 'file' && !name.startsWith('/')) throw new Error(`.ci/tools.tsv: a file row names an absolute path: ${JSON.stringify(line)}`);
      return { tier, kind, name, package: pkg };
    });
}

/** Whether the row's command is on PATH (as `command -v` finds it) or its file exists. */
export function rowPresent(row: ToolRow): boolean {
  if (row.kind === 'file') return existsSync(row.name);
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', row.name], { stdio: 'ignore' }).status === 0;
}

/**
 * The tool tier (test/support/tool-tier.ts) for the rows of one tier of .ci/tools.tsv: pass it
 * to `registerToolGate()`, so a missing tool is a visible skip locally and a failure under CI=true.
 *
 * @param tier The tier's name in the table.
 * @param title The gate's test title (default: the tier's name).
 * @throws {Error} When the table has no row for `tier` (a misspelt tier would otherwise need nothing).
 */
export function hostToolTier(tier: string, title: string = tier): ToolTier {
  const rows = toolRows().filter((row) => row.tier === tier);
  if (rows.length === 0) throw new Error(`.ci/tools.tsv has no row for tier '${tier}'`);
  const absent = rows.filter((row) => !rowPresent(row));
  const packages = [...new Set(absent.map((row) => row.package))].join(' ');
  return {
    name: title,
    missing: absent.length === 0 ? undefined : `${absent.map((row) => row.name).join(', ')} missing`,
    remedy: `run .ci/install-tools, which installs the Debian package(s) ${packages} (apt-get install -y --no-install-recommends ${packages})`,
  };
}
