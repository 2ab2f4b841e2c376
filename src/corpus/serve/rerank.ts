// The re-rank of the corpus ranking's candidates (docs/design/providers.md §8.2): a chunk's bm25
// scaled by the share of the query's words it holds and by how close together they stand, then
// a file's further chunks scaled down so more files reach the top.

/** Exponent of the word share: a chunk with half the words keeps 0.5^0.7 ≈ 62% of its bm25. */
export const WORD_SHARE_POWER = 0.7;
/** Largest proximity bonus, as a share of the bm25 value (the words side by side). */
export const PROXIMITY_BONUS = 0.1;

/** Factor on the bm25 value of a file's second chunk (and again for each further one). */
export const REPEAT_FILE_FACTOR = 0.5;

/** A candidate: its text and its bm25-like value (negative, more negative is better). */
export interface Candidate {
  readonly rowid: number;
  readonly title: string;
  readonly uri: string;
  readonly content: string;
  readonly rank: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Cuts common English suffixes, close enough to the index's porter stemmer for counting which
 * query words a chunk holds ("installing" and "installs" meet "install").
 */
export function lightStem(word: string): string {
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ers', 'ed', 'es', 'er', 'ly', 's']) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

/**
 * Re-ranks candidates.
 *
 * @param candidates Rows of the FTS5 passes, each once.
 * @param words The query's words, lower-cased.
 * @returns The candidates best first: rank × share^0.7 × (1 + proximity), ties by rowid, then
 *   each file's n-th chunk scaled by REPEAT_FILE_FACTOR^(n-1) and sorted again.
 */
export function rerank<T extends Candidate>(candidates: readonly T[], words: readonly string[]): T[] {
  const stems = [...new Set(words.map(lightStem))];
  const scored = candidates.map((row) => {
    const positions = wordPositions(`${row.title} ${row.content}`, stems);
    const found = new Set(positions.map(([, stem]) => stem));
    for (const [token] of row.uri.toLowerCase().matchAll(WORD)) if (stems.includes(lightStem(token))) found.add(lightStem(token));
    // FTS5 matched at least one word, whatever the light stemmer says.
    const share = Math.max(found.size, 1) / stems.length;
    return { row, rank: row.rank * share ** WORD_SHARE_POWER * (1 + proximity(positions)) };
  });
  scored.sort((a, b) => a.rank - b.rank || a.row.rowid - b.row.rowid);
  return spreadFiles(scored.map((entry) => ({ ...entry.row, rank: entry.rank })));
}

// Token positions of the query's words in a text.
function wordPositions(text: string, stems: readonly string[]): [number, string][] {
  const positions: [number, string][] = [];
  let index = 0;
  for (const [token] of text.toLowerCase().matchAll(WORD)) {
    const stem = lightStem(token);
    if (stems.includes(stem)) positions.push([index, stem]);
    index++;
  }
  return positions;
}

// PROXIMITY_BONUS × distinct words / the smallest window (in tokens) that holds each of them once.
function proximity(positions: readonly [number, string][]): number {
  const distinct = new Set(positions.map(([, stem]) => stem)).size;
  if (distinct < 2) return 0;
  const counts = new Map<string, number>();
  let best = Number.POSITIVE_INFINITY;
  let have = 0;
  let left = 0;
  for (const [position, stem] of positions) {
    counts.set(stem, (counts.get(stem) ?? 0) + 1);
    if (counts.get(stem) === 1) have++;
    while (have === distinct) {
      const [start, first] = positions[left] as [number, string];
      best = Math.min(best, position - start + 1);
      counts.set(first, (counts.get(first) as number) - 1);
      if (counts.get(first) === 0) have--;
      left++;
    }
  }
  return (PROXIMITY_BONUS * distinct) / best;
}

// A file's n-th chunk (in rank order) keeps REPEAT_FILE_FACTOR^(n-1) of its value, then the rows
// are sorted again: more sources in the top five, and scores still fall with the order.
function spreadFiles<T extends Candidate>(rows: readonly T[]): T[] {
  const seen = new Map<string, number>();
  const spread = rows.map((row) => {
    const file = row.uri.replace(/#.*$/u, '');
    const earlier = seen.get(file) ?? 0;
    seen.set(file, earlier + 1);
    return { ...row, rank: row.rank * REPEAT_FILE_FACTOR ** earlier };
  });
  return spread.sort((a, b) => a.rank - b.rank || a.rowid - b.rowid);
}
