// The extra searchable words of a chunk (docs/design/providers.md §8.1): the parts of camelCase
// identifiers, so "render external context" finds `renderExternalContext`, and the file path as
// words. unicode61 already splits snake_case and kebab-case at `_` and `-`.

// A word with a lower-to-upper or acronym-to-word case change inside it.
const CAMEL_WORD = /[\p{L}\p{N}]*[\p{Ll}\p{N}]\p{Lu}[\p{L}\p{N}]*|[\p{L}\p{N}]*\p{Lu}{2}\p{Ll}[\p{L}\p{N}]*/gu;
// Boundaries inside a camelCase word: `aB`, `ABc` (between the acronym and the next word), letter/digit.
const CASE_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
/** Most identifier parts kept per chunk, so a chunk of generated code cannot grow the index unbounded. */
export const MAX_IDENTIFIER_PARTS = 200;

/**
 * The parts of the camelCase and PascalCase identifiers of a text, in order of appearance, each
 * identifier once.
 *
 * @param text A chunk's title and content.
 * @returns The parts joined with spaces (`renderExternalContext HTTPServer` → `render External
 *   Context HTTP Server`); empty when the text has no such identifier.
 */
export function identifierTerms(text: string): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const [word] of text.matchAll(CAMEL_WORD)) {
    if (seen.has(word)) continue;
    seen.add(word);
    for (const part of word.split(new RegExp(CASE_BOUNDARY, 'gu'))) {
      if (parts.length >= MAX_IDENTIFIER_PARTS) return parts.join(' ');
      parts.push(part);
    }
  }
  return parts.join(' ');
}

/**
 * A relative path as searchable words: the extension dropped, so `git-doc/git-stash.txt` is
 * searched as `git doc git stash` and a query naming the file finds it.
 *
 * @param relativePath The file's relative path with `/` separators.
 */
export function pathTerms(relativePath: string): string {
  return relativePath.replace(/\.[^./]*$/u, '');
}
