// GitHub-style heading anchors: the fragment a Markdown renderer gives a heading, made unique
// within one file with -1, -2, … suffixes, so chunk ids and uris point at real anchors.

/**
 * Hands out anchors for the headings of one file, in order.
 *
 * The slug is the heading text lower-cased, with everything but letters, digits, marks,
 * connector punctuation, hyphens and spaces removed, and spaces turned into hyphens. An
 * empty slug becomes `section`. A repeated slug gets `-1`, `-2`, … appended.
 */
export class HeadingAnchors {
  readonly #used = new Set<string>();
  readonly #suffixes = new Map<string, number>();

  /**
   * The anchor of the next heading.
   *
   * @param text Heading text (inline Markdown allowed; emphasis and code marks are dropped).
   * @returns A non-empty anchor, unique among the anchors this instance has returned.
   */
  next(text: string): string {
    const base = slug(text);
    let anchor = base;
    let suffix = this.#suffixes.get(base) ?? 0;
    while (this.#used.has(anchor)) anchor = `${base}-${++suffix}`;
    this.#suffixes.set(base, suffix);
    this.#used.add(anchor);
    return anchor;
  }
}

function slug(text: string): string {
  const slugged = text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
  return slugged === '' ? 'section' : slugged;
}
