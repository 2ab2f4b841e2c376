// The auto-recall query sanitizer (docs/design/hooks.md §2.3): best-effort redaction, not DLP. Steps 1–9
// run in the spec's order; each removal becomes one space. Every pattern runs in linear time:
// no nested quantifiers, and runs of the same class start only at a run boundary (lookbehind),
// so the engine never rescans a long run from every position inside it.
import { PRIVATE_KEY, PRIVATE_KEY_START, SCRUB_BEARER as BEARER, SCRUB_JWT as JWT, SECRET_NAME } from '../contract/secret-patterns.ts';
import { cutCodePoints } from '../util/code-points.ts';

/** Code points kept before the pattern steps (step 2). */
export const MAX_PROMPT_CODE_POINTS = 4096;
/** Code points of the final query (step 9). */
export const MAX_AUTO_RECALL_QUERY_CODE_POINTS = 512;

// Step 2a: invisible code points (Cf, Default_Ignorable_Code_Point) between two token68
// characters: a U+200B or soft hyphen inside a pasted token split it into runs the later steps
// miss (found by a hostile test). Starts only after a token character, so a long invisible run
// is scanned once.
const INVISIBLE_IN_TOKEN = /(?<=[A-Za-z0-9._~+/=-])[\p{Cf}\p{Default_Ignorable_Code_Point}]+(?=[A-Za-z0-9._~+/=-])/gu;
// Step 4: `authorization`, optional blanks, `:` or `=`, optional blanks, the rest of the line.
const HEADER_CREDENTIAL = /authorization[ \t]*[:=][ \t]*[^\r\n]*/gi;
// Step 5: the name part; whole runs only (see removeSecretAssignments).
const NAME_RUN = /[A-Za-z0-9_.-]+/g;
// SECRET_NAME (step 5), BEARER (step 6: `bearer`, blanks, a token68-like run) and JWT (step 7:
// three runs of 8+ `[A-Za-z0-9_-]` joined by two dots) come from the one pattern table.
// Step 8: a maximal run of 32+ `[A-Za-z0-9_-]` (not adjacent to another such character).
const LONG_RUN = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])/g;
// Step 9: JS whitespace.
const WHITESPACE_RUN = /\s+/g;

/**
 * Builds the auto-recall query from the submitted prompt.
 *
 * @param prompt The raw `submitted_prompt` (any length).
 * @param credential The resolved credential of the binding (non-empty); every occurrence is
 *   removed before anything else.
 * @returns The query, at most 512 code points, whitespace folded and trimmed; `""` when
 *   nothing is left (then no search runs).
 * @see docs/design/hooks.md §2.3
 */
export function sanitizeQuery(prompt: string, credential: string): string {
  // Step 1 runs on the full prompt, before the cut, so a credential that straddles the cut
  // cannot leave a partial prefix behind.
  let text = credential === '' ? prompt : prompt.split(credential).join(' ');
  text = cutCodePoints(text, MAX_PROMPT_CODE_POINTS); // step 2
  text = text.replace(INVISIBLE_IN_TOKEN, ''); // step 2a
  text = removeFencedBlocks(text); // step 3
  // Step 3 also removes an unfenced private-key block: its base64 lines are cut by `+`, `/` and
  // line ends into runs shorter than step 8's 32, so only the table's pattern catches it. Every
  // match starts with its case-sensitive literal: without it the pattern, whose compilation cost
  // every Hook run about 1 ms CPU, is never run.
  if (text.includes(PRIVATE_KEY_START)) text = text.replace(PRIVATE_KEY, ' ');
  text = text.replace(HEADER_CREDENTIAL, ' '); // step 4
  text = removeSecretAssignments(text); // step 5
  text = text.replace(BEARER, ' '); // step 6
  text = text.replace(JWT, ' '); // step 7
  text = text.replace(LONG_RUN, ' '); // step 8
  text = text.replace(WHITESPACE_RUN, ' ').trim(); // step 9
  return cutCodePoints(text, MAX_AUTO_RECALL_QUERY_CODE_POINTS);
}

/**
 * Step 3: removes fenced blocks, scanning left to right, from an opener (three backticks or
 * three tildes) to the next fence of the same kind, inclusive; an unclosed opener removes
 * the rest. Found positions are reused, so each fence kind is scanned once.
 */
export function removeFencedBlocks(text: string): string {
  let out = '';
  let position = 0;
  const next = { '```': -2, '~~~': -2 };
  const find = (fence: '```' | '~~~'): number => {
    // -2: not searched yet; -1: none left; otherwise the cached index if still ahead.
    if (next[fence] === -1) return -1;
    if (next[fence] < position) next[fence] = text.indexOf(fence, position);
    return next[fence];
  };
  for (;;) {
    const backticks = find('```');
    const tildes = find('~~~');
    if (backticks === -1 && tildes === -1) return out + text.slice(position);
    const fence = tildes === -1 || (backticks !== -1 && backticks < tildes) ? '```' : '~~~';
    const open = fence === '```' ? backticks : tildes;
    out += `${text.slice(position, open)} `;
    position = open + 3;
    const close = find(fence);
    if (close === -1) return out;
    position = close + 3;
  }
}

/**
 * Step 5: removes secret assignments: an optional quote, a name of `[A-Za-z0-9_.-]` that
 * contains `api_key`, `api-key`, `apikey`, `token`, `password` or `secret` (any case), an
 * optional closing quote, optional blanks, `:` or `=`, optional blanks and an optional value
 * (a double-quoted string, a single-quoted string, or a run without whitespace, `,` and `;`).
 *
 * A leftmost match always starts at the beginning of a maximal name run (the name may extend
 * backwards over name characters), so whole runs are examined once each.
 */
export function removeSecretAssignments(text: string): string {
  let out = '';
  let last = 0;
  const quoteSearch = { '"': -2, "'": -2 };
  const closingQuote = (quote: '"' | "'", from: number): number => {
    if (quoteSearch[quote] === -1) return -1;
    if (quoteSearch[quote] < from) quoteSearch[quote] = text.indexOf(quote, from);
    return quoteSearch[quote];
  };
  NAME_RUN.lastIndex = 0;
  for (let run = NAME_RUN.exec(text); run !== null; run = NAME_RUN.exec(text)) {
    if (!SECRET_NAME.test(run[0])) continue;
    const end = assignmentEnd(text, run.index + run[0].length, closingQuote);
    if (end === undefined) continue;
    const before = text[run.index - 1];
    const start = run.index - 1 >= last && (before === '"' || before === "'") ? run.index - 1 : run.index;
    out += `${text.slice(last, start)} `;
    last = end;
    NAME_RUN.lastIndex = end;
  }
  return out + text.slice(last);
}

function isBlank(char: string | undefined): boolean {
  return char === ' ' || char === '\t';
}

/** The end of `["']?[ \t]*[:=][ \t]*value?` starting at `index`, or undefined when absent. */
function assignmentEnd(text: string, index: number, closingQuote: (quote: '"' | "'", from: number) => number): number | undefined {
  let i = index;
  if (text[i] === '"' || text[i] === "'") i++;
  while (isBlank(text[i])) i++;
  if (text[i] !== ':' && text[i] !== '=') return undefined;
  i++;
  while (isBlank(text[i])) i++;
  const first = text[i];
  if (first === '"' || first === "'") {
    const close = closingQuote(first, i + 1);
    if (close !== -1) return close + 1;
  }
  // A run of characters other than JS whitespace, `,` and `;` (possibly empty).
  while (i < text.length && !/[\s,;]/.test(text[i] as string)) i++;
  return i;
}
