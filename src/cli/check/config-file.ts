// `check`'s file items (docs/design/config.md §11): where the configuration is, whether it can be
// read, who owns it and who may write it, and placeholder values left in from the examples.
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import process from 'node:process';
import { MAX_CONFIG_BYTES } from '../../config/read-file.ts';
import { fileErrorCause } from '../../config/read-json-file.ts';
import { ownEnv } from '../../util/own-env.ts';
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
  const posix = process.platform !== 'win32';
  const facts = [`regular file, ${info.size} bytes`, ...(posix ? [`owner uid ${info.uid}`, octalMode(info)] : [])].join(', ');
  if (posix && (info.mode & GROUP_OTHER_WRITE) !== 0) {
    return item(
      'config-file',
      'warn',
      `${shown}: ${facts}; writable by ${(info.mode & 0o002) !== 0 ? 'other users' : 'the group'}.`,
      `Anyone who can write the file can rebind the corpus: chmod go-w '${shown}'.`,
    );
  }
  return item('config-file', 'ok', `${shown}: ${facts}.`);
}

/** Placeholder patterns the shipped examples and guides use (docs/design/config.md §11). */
const PLACEHOLDER_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/<[^<>]{1,80}>/u, '<…>'],
  [/YOUR_/u, 'YOUR_…'],
  [/replace-me/iu, 'replace-me'],
  [/\/absolute\/path\/to\//u, '/absolute/path/to/…'],
];

/** The fields whose value is the name of the credential variable (docs/design/config.md §7). */
const VARIABLE_NAME_FIELDS: ReadonlySet<string> = new Set(['provider.tokenEnv', 'provider.apiKeyEnv', 'provider.credentialEnv']);

/** Whether a host name is a documentation host: `example.com`, `*.example.com`, `*.example`, `example`. */
function isExampleHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/u, '');
  return name === 'example' || name.endsWith('.example') || name === 'example.com' || name.endsWith('.example.com');
}

/** The placeholder a string still holds, or undefined. */
function placeholderIn(value: string): string | undefined {
  for (const [pattern, label] of PLACEHOLDER_PATTERNS) if (pattern.test(value)) return label;
  if (/^https?:\/\//iu.test(value)) {
    try {
      if (isExampleHost(new URL(value).hostname)) return 'an example host';
    } catch {
      // Not a URL: the schema reports it.
    }
  }
  return undefined;
}

function collect(value: unknown, at: string, found: string[], env: Readonly<Record<string, string | undefined>>): void {
  if (found.length >= 5) return;
  if (typeof value === 'string') {
    const label = placeholderIn(value);
    // A variable name such as YOUR_ORG_TOKEN that is set is the administrator's real variable.
    if (label === 'YOUR_…' && VARIABLE_NAME_FIELDS.has(at) && ownEnv(env, value) !== undefined) return;
    if (label !== undefined) found.push(`${at} (${label})`);
  } else if (Array.isArray(value)) {
    value.forEach((element, index) => collect(element, `${at}.${index}`, found, env));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, element] of Object.entries(value)) collect(element, at === '' ? key : `${at}.${key}`, found, env);
  }
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
  const found: string[] = [];
  collect(parsed, '', found, env);
  if (found.length === 0) return item('placeholders', 'ok', 'No placeholder values left from the examples.');
  return item('placeholders', 'fail', `Placeholder values left from the examples: ${printable(found.join(', '))}.`, 'Replace each of these fields with the value of your deployment.');
}
