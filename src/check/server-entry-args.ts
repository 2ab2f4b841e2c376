// `check --mcp-config`: the server entry must be exactly the stdio server of the configuration
// checked here (docs/design/config.md §11, issue 25 §6.3). An entry that runs a Hook, `check`,
// `serve --http`, binds `--config` twice or excludes the tool serves something else than what
// the other items judged.
import { type CheckItem, item, printable } from './check-item.ts';

/** The product's command words, the only plain arguments an item names. */
const COMMAND_WORDS: ReadonlySet<string> = new Set(['serve', 'hook', 'check', 'probe', 'conformance', 'corpus', 'gateway', 'launch', 'auto-recall', 'write-confirmation', 'settings']);
/** What `args` may hold besides the configuration: the stdio server and nothing else. */
const CONFIG_FLAG = '--config';

/**
 * The `mcp-config.args` item: `args` are `serve` (or nothing, which runs `serve`) followed by at
 * most one `--config <path>` or `--config=<path>`, and `excludeTools` names no tool of the server.
 *
 * @param args The entry's `args` (strings only).
 * @param excludeTools The entry's `excludeTools`, when it is a string array.
 * @param serverName The entry's key, for the message.
 * @returns `ok`, or `fail` naming the first thing that is not the stdio server; an argument is
 *   shown only when it looks like a flag name (a stray value could be anything).
 * @see docs/design/config.md §11
 */
export function serverArgsItem(args: readonly string[], excludeTools: readonly string[] | undefined, serverName: string): CheckItem {
  const problem = argsProblem(args) ?? excludedProblem(excludeTools);
  const where = `mcpServers.${printable(serverName)}`;
  if (problem === undefined) return item('mcp-config.args', 'ok', `${where}.args run the stdio server of one configuration.`);
  return item(
    'mcp-config.args',
    'fail',
    `${where} is not exactly the stdio server of this configuration: ${problem}.`,
    'Set args to ["serve", "--config", "<absolute path>"] and remove excludeTools, as in contracts/examples/managed-search-mcp.json.',
  );
}

/** Why `args` are not `serve` plus at most one `--config` (also Codex's `mcp_servers.<key>.args`); undefined when they are. */
export function argsProblem(args: readonly string[]): string | undefined {
  const rest = args[0] === 'serve' ? args.slice(1) : [...args];
  const first = args[0];
  if (first === 'hook' || first === 'check' || (first !== undefined && first !== 'serve' && !first.startsWith('--'))) {
    return `it runs ${shownArgument(first)}, not "serve"`;
  }
  let configs = 0;
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index] as string;
    if (arg === CONFIG_FLAG || arg.startsWith(`${CONFIG_FLAG}=`)) {
      configs++;
      if (configs > 1) return '--config is given more than once (serve refuses it)';
      if (arg === CONFIG_FLAG) index++;
      continue;
    }
    if (arg === '--http') return 'it runs serve --http, the remote server, not the stdio server';
    return `it passes ${shownArgument(arg)}, which the stdio server of one configuration does not take`;
  }
  return undefined;
}

function excludedProblem(excludeTools: readonly string[] | undefined): string | undefined {
  const excluded = excludeTools?.filter((tool) => tool === 'context_search' || tool === 'context_remember') ?? [];
  return excluded.length === 0 ? undefined : `excludeTools hides ${excluded.map((tool) => `"${tool}"`).join(' and ')}`;
}

// A flag name or a subcommand word is shown; anything else could be a value (a path, a token).
function shownArgument(arg: string): string {
  const name = arg.split('=')[0] ?? arg;
  if (/^--?[A-Za-z0-9][A-Za-z0-9-]{0,40}$/u.test(name)) return `"${name}"`;
  if (COMMAND_WORDS.has(arg)) return `"${arg}"`;
  return 'an argument';
}
