// Splitting `conformance --command` into an argument vector without a shell (docs/design/remote.md §2.1).

/** The words, or why there are none. */
export type SplitCommand = { readonly ok: true; readonly words: readonly string[] } | { readonly ok: false; readonly reason: 'unterminated-quote' };

const WHITESPACE = /\s/;

/**
 * Splits a command line.
 *
 * Words are separated by runs of JS whitespace outside quotes. `'…'` and `"…"` group
 * characters into the current word and are removed; there are no escape sequences (a
 * backslash is ordinary), and inside one kind of quote the other kind is ordinary. Quoted and
 * unquoted parts that touch form one word, and `""` alone is an empty word.
 *
 * @param line The `--command` value.
 * @returns The words in order (possibly none), or `unterminated-quote`.
 * @see docs/design/remote.md §2.1
 */
export function splitCommand(line: string): SplitCommand {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | undefined;
  for (const char of line) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (WHITESPACE.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined) return { ok: false, reason: 'unterminated-quote' };
  if (inWord) words.push(word);
  return { ok: true, words };
}
