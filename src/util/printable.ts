// One-line display of administrator or provider text in operator output: a C0/C1 control
// character, U+2028 or U+2029 is shown as a `\uXXXX` escape instead of breaking or rewriting the
// line (docs/design/style.md, "Errors").

/**
 * @param value Any text (a path, a field value, a provider title).
 * @returns The text with each control character as `\uXXXX`.
 */
export function printable(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
