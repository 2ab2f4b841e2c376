// One-line display of administrator or provider text in operator output: a C0/C1 control
// character, U+2028 or U+2029, a bidi control (U+202A–U+202E, U+2066–U+2069) or a zero-width /
// invisible format character (U+200B–U+200F, U+2060–U+2064, U+FEFF) is shown as a `\uXXXX`
// escape instead of breaking, reordering or hiding part of the line (docs/design/style.md, "Errors";
// docs/design/config.md §3).

/** The characters {@link printable} escapes (all in the Basic Multilingual Plane). */
export const UNPRINTABLE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;

/**
 * @param value Any text (a path, a field value, a provider title).
 * @returns The text with each control, bidi or invisible format character as `\uXXXX`.
 */
export function printable(value: string): string {
  return value.replace(UNPRINTABLE_CHARACTERS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
