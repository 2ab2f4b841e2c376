// Frozen copy of src/contract/bound.ts before issue 27 (commit a6a66b8): the "before" side of
// test/bench/render-rule-cost.ts. Never edited; it measures what rendering cost without the rule.

// The bounding algorithm `renderExternalContext` (docs/design/profile-v1.md §5.3): at most 5 items,
// per-field code-point caps, and a 4000 UTF-16-unit budget for the escaped text. Step
// numbers below are the spec's.
import { type EnvelopeItem, serializeEnvelope } from './envelope.ts';
import { escapeAngleBrackets } from './escape.ts';
import { codePointCount, cutCodePoints } from '../../../src/util/code-points.ts';

/** Items kept at most. */
export const MAX_ITEMS = 5;
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
  const item: EnvelopeItem = {
    id: cutCodePoints(raw.id, MAX_ID_CODE_POINTS),
    content: cutCodePoints(raw.content, MAX_CONTENT_CODE_POINTS),
  };
  if (isNonEmptyString(raw.title)) item.title = cutCodePoints(raw.title, MAX_TITLE_CODE_POINTS);
  if (isNonEmptyString(raw.uri)) item.uri = cutCodePoints(raw.uri, MAX_URI_CODE_POINTS);
  // −0 becomes 0 so S deep-equals JSON.parse(T) under Object.is.
  if (typeof raw.score === 'number' && Number.isFinite(raw.score)) item.score = raw.score === 0 ? 0 : raw.score;
  if (isNonEmptyString(raw.updatedAt)) item.updatedAt = cutCodePoints(raw.updatedAt, MAX_UPDATED_AT_CODE_POINTS);
  return item;
}

// |T| from its parts, so each step measures one item instead of the whole envelope:
// JSON.stringify writes the items as "[" + their texts joined by "," + "]", and escaping
// replaces single characters, so |T(items)| = |T([])| + Σ|item text| + (number of items − 1).
const EMPTY_ENVELOPE_UNITS = serializeEnvelope([]).length;

/** The length in UTF-16 units of one item's escaped text inside `T`. */
function itemUnits(item: EnvelopeItem): number {
  return escapeAngleBrackets(JSON.stringify(item)).length;
}

// Step 2.5: the largest k in 1…n such that the content cut to k code points fits.
function largestFittingContent(fits: (item: EnvelopeItem) => boolean, item: EnvelopeItem): string | undefined {
  const content = item.content;
  let low = 1;
  let high = codePointCount(content);
  let best: string | undefined;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    item.content = cutCodePoints(content, mid);
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
