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

export { printable } from '../util/printable.ts';

/** At most `max` code points of `value`, with `…` when cut. */
export function clip(value: string, max: number): string {
  const points = Array.from(value);
  return points.length <= max ? value : `${points.slice(0, max).join('')}…`;
}
