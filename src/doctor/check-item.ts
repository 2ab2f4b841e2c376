// One line of the `check` checklist (docs/design/config.md §11): an id, a status, what was found
// and, when something is to be done, what to change. Texts are administrator-facing: they may
// name the administrator's own files, fields and the credential variable, never a value of it.

/** `ok`, `warn` (works, but should be changed) or `fail` (will not work; `check` exits 1). */
export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One checklist item; `--json` prints exactly these keys. */
export interface CheckItem {
  readonly id: string;
  readonly status: CheckStatus;
  readonly message: string;
  readonly hint?: string;
}

/** Builds an item, leaving `hint` out when there is none. */
export function item(id: string, status: CheckStatus, message: string, hint?: string): CheckItem {
  return hint === undefined ? { id, status, message } : { id, status, message, hint };
}

/**
 * Keeps a text one line: a control character (administrator or provider input) is shown as a
 * `\uXXXX` escape instead of breaking or rewriting the output.
 */
export function printable(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** At most `max` code points of `value`, with `…` when cut. */
export function clip(value: string, max: number): string {
  const points = Array.from(value);
  return points.length <= max ? value : `${points.slice(0, max).join('')}…`;
}
