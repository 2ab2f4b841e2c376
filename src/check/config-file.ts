// `check`'s file items (docs/design/config.md §11): where the configuration is, whether it can be
// read, who owns it and who may write it, and placeholder values left in from the examples.
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { MAX_CONFIG_BYTES } from '../config/read-file.ts';
import { fileErrorCause } from '../config/read-json-file.ts';
import { placeholderFields } from '../config/placeholders.ts';
import { configWritableByOthers } from '../config/trusted-config.ts';
import { trustFacts } from '../runtime/trust-facts.ts';
import { type CheckItem, item, printable } from './check-item.ts';

/** Group- or other-writable mode bits. */
const GROUP_OTHER_WRITE = 0o022;

/** `mode 0640` from a POSIX mode. */
function octalMode(info: Stats): string {
  return `mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}`;
}

/**
 * The `config-file` item: a regular file of at most 64 KiB; its size, owner and mode; a warning
 * when the group or others may write it (anyone who can write it can rebind the corpus).
 *
 * @param configPath The resolved absolute path.
 * @returns The item; `fail` names the cause, `warn` the chmod to run.
 */
export async function configFileItem(configPath: string): Promise<CheckItem> {
  const shown = printable(configPath);
  let info: Stats;
  try {
    info = await stat(configPath);
  } catch (error) {
    return item('config-file', 'fail', `${shown}: ${fileErrorCause(error)}.`, 'Create the file or fix the path in --config or QWEN_EXTERNAL_CONTEXT_CONFIG.');
  }
  if (info.isDirectory()) return item('config-file', 'fail', `${shown}: is a directory.`, 'Name the configuration file itself, not its directory.');
  if (!info.isFile()) return item('config-file', 'fail', `${shown}: not a regular file.`, 'Point --config at a regular JSON file.');
  if (info.size > MAX_CONFIG_BYTES) {
    return item('config-file', 'fail', `${shown}: larger than 64 KiB (${info.size} bytes).`, 'A configuration is a small JSON file: remove what does not belong in it.');
  }
  const trust = trustFacts();
  const posix = !trust.windows;
  const facts = [`regular file, ${info.size} bytes`, ...(posix ? [`owner uid ${info.uid}`, octalMode(info)] : [])].join(', ');
  // The rule serve and the auto-recall Hook enforce (src/util/trusted-path.ts): a failure here is a refusal there.
  if (posix && (info.mode & GROUP_OTHER_WRITE) !== 0) {
    return item(
      'config-file',
      'fail',
      `${shown}: ${facts}; writable by ${(info.mode & 0o002) !== 0 ? 'other users' : 'the group'}.`,
      `Anyone who can write the file can rebind the corpus, so serve and the Hooks refuse it: chmod go-w '${shown}'.`,
    );
  }
  if (posix && (await configWritableByOthers(configPath, trust))) {
    return item(
      'config-file',
      'fail',
      `${shown}: ${facts}; a folder above it or a link on its path is not owned by root or this user, or is writable by the group or others.`,
      'Keep the configuration in a folder only root or its owner can write (such as /etc/external-context, mode 0755), with every folder and link above it the same; serve and the Hooks refuse it otherwise.',
    );
  }
  return item('config-file', 'ok', `${shown}: ${facts}.`);
}

/**
 * The `placeholders` item: every string value (first five reported) that still holds `<…>`,
 * `YOUR_…`, `replace-me`, `/absolute/path/to/`, or an `http(s)` URL on `example.com`,
 * `*.example.com` or `*.example`. `YOUR_` in `provider.tokenEnv`, `apiKeyEnv` or
 * `credentialEnv` counts only while that variable is not set (docs/design/config.md §11).
 *
 * @param parsed The parsed configuration JSON (any shape).
 * @param env The environment check runs in (own properties only).
 * @returns `fail` naming the fields, else `ok`.
 */
export function placeholderItem(parsed: unknown, env: Readonly<Record<string, string | undefined>> = {}): CheckItem {
  const found = placeholderFields(parsed, env);
  if (found.length === 0) return item('placeholders', 'ok', 'No placeholder values left from the examples.');
  return item('placeholders', 'fail', `Placeholder values left from the examples: ${printable(found.join(', '))}.`, 'Replace each of these fields with the value of your deployment.');
}
