// The file kinds `corpus index` leaves out of a walked folder unless --include names them
// (docs/design/providers.md §8.1): markup, style sheets, scripts and data whose text is mostly
// tags, selectors or code. Indexed as plain text they fill the index with `<!DOCTYPE html…`
// and CSS chunks that outrank the prose (the administrator trial on /usr/share/doc/git-doc).

/** Extensions left out, lower case, without the dot. */
export const MARKUP_EXTENSIONS: ReadonlySet<string> = new Set(['html', 'htm', 'xhtml', 'css', 'js', 'mjs', 'cjs', 'json', 'xml', 'svg']);

/**
 * @param relativePath A file's relative path with `/` separators.
 * @returns Its extension in lower case when it is one of {@link MARKUP_EXTENSIONS}, else undefined.
 */
export function markupExtension(relativePath: string): string | undefined {
  const name = relativePath.slice(relativePath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const extension = name.slice(dot + 1).toLowerCase();
  return MARKUP_EXTENSIONS.has(extension) ? extension : undefined;
}
