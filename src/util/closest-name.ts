// The "did you mean" of usage errors and configuration errors: the one known name close to a
// mistyped one (issue 25 §4.7).

/**
 * The known name closest to `typed`: at most 2 edits (1 for names of 4 characters or fewer),
 * an edit being an insertion, deletion, substitution or swap of two neighbours, compared
 * without letter case; and only when exactly one name is that close.
 *
 * @param typed What was written (a leading `-` or `--` is ignored).
 * @param known The names that exist.
 * @returns The suggestion, or undefined when none or more than one fits, or `typed` is known
 *   exactly.
 */
export function closestName(typed: string, known: Iterable<string>): string | undefined {
  const written = typed.replace(/^--?/u, '');
  const name = written.toLowerCase();
  const limit = name.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = limit + 1;
  let tie = false;
  for (const candidate of new Set(known)) {
    const distance = editDistance(name, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance, tie] = [candidate, distance, false];
    else if (distance === bestDistance) tie = true;
  }
  // Distance 0 is a difference of letter case only (`basepath` for `basePath`): still a suggestion.
  return best !== undefined && !tie && bestDistance <= limit && best !== written ? best : undefined;
}

/** Edit distance with adjacent transpositions (optimal string alignment): `jsno` is 1 from `json`. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, index) => index)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const above = rows[i - 1] as number[];
      let distance = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = distance;
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}
