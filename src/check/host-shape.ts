// `check --host`: a server entry written for another host (docs/design/config.md §11). Each host's
// rules alone would pass a Qwen Code entry under --host claude with one alwaysLoad warning, or fail a
// Claude Code entry under --host qwen on includeTools, never saying that --host may be wrong.
import type { HookHost } from '../hooks/hosts.ts';
import { type CheckItem, item } from './check-item.ts';

const HOST_NAMES: Readonly<Record<HookHost, string>> = { qwen: 'Qwen Code', claude: 'Claude Code', gemini: 'Gemini CLI', codex: 'Codex' };

// The keys only one host (or one family) reads in an mcpServers entry (docs/design/agents.md §1–§3).
const CLAUDE_ONLY = ['alwaysLoad'] as const;
const QWEN_ONLY = ['alwaysLoadTools'] as const;
const GEMINI_FAMILY = ['includeTools', 'excludeTools', 'trust'] as const;

/** The host whose keys the entry carries while it lacks the given host's own, if any. */
function otherShape(host: Exclude<HookHost, 'codex'>, entry: Record<string, unknown>): { readonly host: HookHost | 'qwen-or-gemini'; readonly keys: string[] } | undefined {
  const present = (keys: readonly string[]): string[] => keys.filter((key) => Object.hasOwn(entry, key));
  const claude = present(CLAUDE_ONLY);
  const qwen = present(QWEN_ONLY);
  const family = present(GEMINI_FAMILY);
  if (host === 'claude') {
    if (claude.length > 0) return undefined;
    if (qwen.length > 0) return { host: 'qwen', keys: [...qwen, ...family] };
    return family.length > 0 ? { host: 'qwen-or-gemini', keys: family } : undefined;
  }
  if (host === 'gemini') {
    if (qwen.length > 0) return { host: 'qwen', keys: qwen };
    return claude.length > 0 && family.length === 0 ? { host: 'claude', keys: claude } : undefined;
  }
  if (claude.length > 0 && qwen.length === 0 && family.length === 0) return { host: 'claude', keys: claude };
  return undefined;
}

/**
 * The `mcp-config.host` item: `warn` when the server entry carries another host's keys and not the
 * checked host's, with a hint to pass the right `--host`; nothing when the shape fits.
 */
export function hostShapeItem(host: Exclude<HookHost, 'codex'>, entry: Record<string, unknown>): CheckItem | undefined {
  const other = otherShape(host, entry);
  if (other === undefined) return undefined;
  const keys = other.keys.map((key) => `"${key}"`).join(', ');
  const looksLike = other.host === 'qwen-or-gemini' ? 'Qwen Code or Gemini CLI' : HOST_NAMES[other.host];
  const flag = other.host === 'qwen-or-gemini' ? '--host qwen or --host gemini' : `--host ${other.host}`;
  return item(
    'mcp-config.host',
    'warn',
    `The server entry has ${keys}, keys of ${looksLike}, not of ${HOST_NAMES[host]}: it looks written for ${looksLike}.`,
    `If the file is for ${looksLike}, run check with ${flag}; if it is for ${HOST_NAMES[host]}, start from its example (docs/deploy.md, "Other coding agents").`,
  );
}
