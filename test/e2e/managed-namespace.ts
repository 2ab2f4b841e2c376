// The agents' managed paths themselves (agents.md §4, issue 29 item 4): a real agent run inside a
// private mount namespace (`unshare -m`, as root) in which `/etc` and `/opt` are overlays whose
// upper layers hold the shipped example files, placed unedited where administrators put them
// (`/etc/claude-code/`, `/etc/codex/`, `/etc/gemini-cli/`, `/etc/external-context/`), and the
// compiled executable bind-mounted at `/opt/external-context/bin/external-context`. Nothing
// outside the namespace changes: the overlays' upper layers live in the test's temporary folder.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ToolTier } from '../support/tool-tier.ts';

/** Where the examples put the executable (examples.md). */
export const MANAGED_EXECUTABLE = '/opt/external-context/bin/external-context';

/** The overlaid roots: every managed file goes below one of them. */
const ROOTS = ['/etc', '/opt'] as const;

/** One namespace set-up: the files to place (absolute path → text) and the files to bind-mount (absolute path → host file). */
export interface ManagedFiles {
  readonly files: Readonly<Record<string, string>>;
  readonly binds?: Readonly<Record<string, string>>;
}

function quote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

function rootOf(file: string): (typeof ROOTS)[number] {
  const root = ROOTS.find((candidate) => file.startsWith(`${candidate}/`));
  if (root === undefined) throw new Error(`${file} is not below ${ROOTS.join(' or ')}`);
  return root;
}

/**
 * Writes the upper layers below `dir` (folders 0755, files 0644, as an administrator would) and
 * returns the command that runs `command args` inside the namespace. The agent, its MCP server
 * and its Hooks all start inside it and see the managed files at their real paths.
 *
 * @param dir A fresh folder of the test (owned by root).
 * @param managed The files to place and bind.
 * @param command The agent binary, then its arguments.
 */
export function inManagedNamespace(dir: string, managed: ManagedFiles, command: string, args: readonly string[]): { command: string; args: string[] } {
  const lines = ['set -e'];
  for (const root of ROOTS) {
    const upper = join(dir, `${root.slice(1)}-upper`);
    const work = join(dir, `${root.slice(1)}-work`);
    mkdirSync(upper, { recursive: true, mode: 0o755 });
    mkdirSync(work, { recursive: true, mode: 0o755 });
    chmodSync(upper, 0o755);
    lines.push(`mount -t overlay overlay -o ${quote(`lowerdir=${root},upperdir=${upper},workdir=${work}`)} ${root}`);
  }
  const place = (file: string, text: string): void => {
    const target = join(dir, `${rootOf(file).slice(1)}-upper`, file.slice(rootOf(file).length));
    mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
    writeFileSync(target, text, { mode: 0o644 });
  };
  for (const [file, text] of Object.entries(managed.files)) place(file, text);
  for (const [file, source] of Object.entries(managed.binds ?? {})) {
    place(file, '');
    lines.push(`mount --bind -o ro ${quote(source)} ${quote(file)}`);
  }
  lines.push('exec "$@"');
  return { command: 'unshare', args: ['--mount', '--propagation', 'private', 'sh', '-c', lines.join('\n'), 'sh', command, ...args] };
}

let probed: string | undefined | null = null;

/**
 * Why the namespace cannot be made here (not root, no `unshare`, no overlay), with the exact
 * error; undefined when it can. Probed once per process by mounting one overlay.
 */
export function managedNamespaceMissing(): string | undefined {
  if (probed !== null) return probed;
  if (process.getuid?.() !== 0) return (probed = 'the managed-path rows need root (a private mount namespace with overlays over /etc and /opt)');
  const dir = mkdtempSync(join(tmpdir(), 'ec-ns-probe-'));
  try {
    const { command, args } = inManagedNamespace(dir, { files: { '/etc/external-context-probe/ok': 'ok\n' } }, 'cat', ['/etc/external-context-probe/ok']);
    const result = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000 });
    if (result.error !== undefined) return (probed = `unshare could not start: ${result.error.message}`);
    probed = result.status === 0 && result.stdout === 'ok\n' ? undefined : `unshare --mount with overlays over /etc and /opt failed (exit ${result.status}): ${result.stderr.trim()}`;
    return probed;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The tool gate of the managed-path rows (registerToolGate). */
export function managedNamespaceTier(name: string): ToolTier {
  return { name, missing: managedNamespaceMissing(), remedy: 'run the tier as root on Linux with util-linux unshare and overlayfs (a container needs CAP_SYS_ADMIN)' };
}
