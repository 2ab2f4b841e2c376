// Content words of a question or a target, for the question set's paraphrase rule
// (docs/design/eval.md §4): lower-cased letter-and-digit runs, stop words out, a light suffix cut.

const STOP_WORDS = new Set(
  `a an and are as at be but by can do does for from get got has have how i if in into is it its
  me my no not of on one or our so some than that the their them then there these this those to
  too up us was we what when where which who why will with without you your like just only all
  any each every out over via vs e g etc own after before again`.split(/\s+/),
);

/** Cuts common English suffixes so "changes" meets "change" and "tracked" meets "track". */
export function stem(word: string): string {
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

/** The set of stemmed content words of a text. */
export function contentWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    if (!STOP_WORDS.has(word) && word.length > 1) words.add(stem(word));
  }
  return words;
}

/** Share of the query's content words that also occur in the target: 0…1 (0 for no content word). */
export function sharedShare(query: string, target: string): number {
  const mine = contentWords(query);
  if (mine.size === 0) return 0;
  const theirs = contentWords(target);
  let shared = 0;
  for (const word of mine) if (theirs.has(word)) shared++;
  return shared / mine.size;
}
