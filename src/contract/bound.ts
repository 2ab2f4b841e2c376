// The bounding algorithm `renderExternalContext` (docs/design/profile-v1.md §5.3): at most 5 items,
// per-field code-point caps, and a 4000 UTF-16-unit budget for the escaped text. Step
// numbers below are the spec's.
import { type EnvelopeItem, serializeEnvelope } from './envelope.ts';
import { escapeInvisible, escapeJsonText } from './escape.ts';
import { isSafeUri } from './safe-uri.ts';
import { codePointCount, cutCodePoints } from '../util/code-points.ts';
import { SEARCH_LIMIT_ITEMS } from '../providers/search-limit.ts';

/** Items kept at most (the one constant of providers/search-limit.ts). */
export const MAX_ITEMS: typeof SEARCH_LIMIT_ITEMS = SEARCH_LIMIT_ITEMS;
/** Field caps in code points. */
export const MAX_ID_CODE_POINTS = 128;
export const MAX_CONTENT_CODE_POINTS = 1000;
export const MAX_TITLE_CODE_POINTS = 200;
export const MAX_URI_CODE_POINTS = 500;
export const MAX_UPDATED_AT_CODE_POINTS = 64;
/** Budget for the escaped serialization `T`, in UTF-16 units. */
export const MAX_RENDERED_UTF16_UNITS = 4000;

/** A raw item as adapters hand it over; fields are checked again here. */
export interface RawItem {
  readonly id?: unknown;
  readonly content?: unknown;
  readonly title?: unknown;
  readonly uri?: unknown;
  readonly score?: unknown;
  readonly updatedAt?: unknown;
}

// Step 2.4: optional keys are shed in this order; provenance `uri` goes last.
const SHED_ORDER = ['score', 'updatedAt', 'title', 'uri'] as const;

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function compactItem(raw: RawItem): EnvelopeItem | undefined {
  // Step 2.1: skip items without a non-empty string id and content.
  if (!isNonEmptyString(raw.id) || !isNonEmptyString(raw.content)) return undefined;
  // Step 2.2: build the compact item in key order, each field cut by code points.
  // Every string is made visible first (the rule of model-visible text, §5.2), then cut, so
  // S itself carries no invisible code point and the caps count the escaped form.
  const item: EnvelopeItem = {
    id: visibleCut(raw.id, MAX_ID_CODE_POINTS),
    content: visibleCut(raw.content, MAX_CONTENT_CODE_POINTS),
  };
  if (isNonEmptyString(raw.title)) item.title = visibleCut(raw.title, MAX_TITLE_CODE_POINTS);
  // `uri` only for http:/https: URLs and relative references (isSafeUri).
  if (isNonEmptyString(raw.uri) && isSafeUri(raw.uri)) item.uri = visibleCut(raw.uri, MAX_URI_CODE_POINTS);
  // −0 becomes 0 so S deep-equals JSON.parse(T) under Object.is.
  if (typeof raw.score === 'number' && Number.isFinite(raw.score)) item.score = raw.score === 0 ? 0 : raw.score;
  if (isNonEmptyString(raw.updatedAt)) item.updatedAt = visibleCut(raw.updatedAt, MAX_UPDATED_AT_CODE_POINTS);
  return item;
}

/**
 * A provider string with its unsafe code points as visible `\uXXXX` text, cut to `limit` code points.
 * Only the first `limit + 1` code points are escaped: each code point escapes to one or more code
 * points, and whether it is escaped depends on the code points before it and the one after it
 * only (escapeInvisible), so the first `limit` code points of the escaped prefix are those of the
 * escaped whole, and the prefix is longer than the cut exactly when the whole is. Escaping a
 * 1 MiB field whole cost the worst-case render most of its time.
 */
export function visibleCut(text: string, limit: number): string {
  return cutKeepingJoiners(escapeInvisible(cutCodePoints(text, limit + 1)), limit);
}

/**
 * Cuts by code points; a kept ZWJ/ZWNJ that the cut leaves at the end no longer joins
 * anything (§5.2), so it goes too and S never ends in a raw joiner.
 */
function cutKeepingJoiners(text: string, limit: number): string {
  let cut = cutCodePoints(text, limit);
  while (cut.length < text.length && (cut.endsWith('\u200c') || cut.endsWith('\u200d'))) cut = cut.slice(0, -1);
  return cut;
}

// |T| from its parts, so each step measures one item instead of the whole envelope:
// JSON.stringify writes the items as "[" + their texts joined by "," + "]", and escaping
// replaces single code points, with a context that never leaves a string value, so |T(items)| = |T([])| + Σ|item text| + (number of items − 1).
const EMPTY_ENVELOPE_UNITS = serializeEnvelope([]).length;

/** The length in UTF-16 units of one item's escaped text inside `T`. */
function itemUnits(item: EnvelopeItem): number {
  return escapeJsonText(JSON.stringify(item)).length;
}

// Step 2.5: the largest k in 1…n such that the content cut to k code points fits.
function largestFittingContent(fits: (item: EnvelopeItem) => boolean, item: EnvelopeItem): string | undefined {
  const content = item.content;
  let low = 1;
  let high = codePointCount(content);
  let best: string | undefined;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    item.content = cutKeepingJoiners(content, mid);
    if (fits(item)) {
      best = item.content;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  item.content = content;
  return best;
}

/**
 * Bounds provider items for the envelope.
 *
 * @param source Items in provider order (adapters already dropped invalid ones).
 * @returns At most 5 compact items, a prefix of the valid items among the first five, such
 *   that the escaped envelope is at most 4000 UTF-16 units; `[]` when nothing fits.
 * @see docs/design/profile-v1.md §5.3
 */
export function boundItems(source: readonly RawItem[]): EnvelopeItem[] {
  const output: EnvelopeItem[] = [];
  // |T| of the items kept so far.
  let used = EMPTY_ENVELOPE_UNITS;
  const unitsWith = (item: EnvelopeItem): number => used + (output.length > 0 ? 1 : 0) + itemUnits(item);
  const fits = (item: EnvelopeItem): boolean => unitsWith(item) <= MAX_RENDERED_UTF16_UNITS;
  // Step 1: the cut to five happens before the validity check.
  for (const raw of source.slice(0, MAX_ITEMS)) {
    const item = compactItem(raw);
    if (item === undefined) continue;
    // Step 2.3: append and measure; 2.4: shed optional keys one at a time; 2.5: binary-search
    // the content length; 2.6: drop this item and stop, so results stay a prefix of the ranking.
    let units = unitsWith(item);
    if (units > MAX_RENDERED_UTF16_UNITS) {
      if (!shedToFit(item, fits)) {
        const content = largestFittingContent(fits, item);
        if (content === undefined) break;
        item.content = content;
      }
      units = unitsWith(item);
    }
    used = units;
    output.push(item);
  }
  return output;
}

// Step 2.4: true once the item fits after shedding optional keys in SHED_ORDER.
function shedToFit(item: EnvelopeItem, fits: (item: EnvelopeItem) => boolean): boolean {
  for (const key of SHED_ORDER) {
    if (!(key in item)) continue;
    delete item[key];
    if (fits(item)) return true;
  }
  return false;
}
