// Frozen copy of src/contract/escape.ts before issue 27 (commit a6a66b8): the "before" side of
// test/bench/render-rule-cost.ts. Never edited; it measures what rendering cost without the rule.

// Angle-bracket escaping of serialized JSON (docs/design/profile-v1.md §5.2): every `<` becomes the six
// characters `\u003c` and every `>` `\u003e`. Brackets only occur inside JSON strings, so the
// text stays valid JSON and parses back to the same value.

/**
 * Escapes `<` and `>` in a JSON text.
 *
 * @param json Output of `JSON.stringify`.
 * @returns The same JSON with no raw angle bracket; length grows by 5 UTF-16 units per bracket.
 */
export function escapeAngleBrackets(json: string): string {
  // Two plain replacements: no per-match callback on the per-search path (issue 18).
  return json.replaceAll('<', '\\u003c').replaceAll('>', '\\u003e');
}

/** `JSON.stringify` followed by angle-bracket escaping: the form every JSON output uses. */
export function stringifyEscaped(value: unknown, space?: number): string {
  return escapeAngleBrackets(JSON.stringify(value, null, space));
}
