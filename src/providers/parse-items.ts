// Item parsing shared by every read adapter (docs/design/providers.md §2): envelope check, per-element
// validation, then the cap of 5 in provider order.
import { decodeDirectImport } from './direct-import.ts';
import { isPlainObject } from '../util/plain-object.ts';
import { ProviderError } from './provider-error.ts';
import { SEARCH_LIMIT_ITEMS } from './search-limit.ts';
import type { ProviderItem } from './types.ts';

/** What differs between adapters: the collection field and the item fields (docs/design/providers.md §5.2). */
export interface ItemMapping {
  /** `items` for Generic HTTP, `results` for the Mem0 family. */
  readonly collection: 'items' | 'results';
  /** Content fields in order; the first non-empty string wins. */
  readonly contentFields: readonly string[];
  /** PolarDB: decode a JSON-serialized message list when the element has `infer: false`. */
  readonly directImportDecoding: boolean;
}

/** One element to an item, or undefined when it must be dropped (docs/design/providers.md §2 step 2). */
function parseElement(element: unknown, mapping: ItemMapping): ProviderItem | undefined {
  if (!isPlainObject(element)) return undefined;
  const id = element['id'];
  if (typeof id !== 'string' || id === '') return undefined;
  let content: string | undefined;
  for (const field of mapping.contentFields) {
    const candidate = element[field];
    if (typeof candidate === 'string' && candidate !== '') {
      content = candidate;
      break;
    }
  }
  if (content === undefined) return undefined;
  if (mapping.directImportDecoding && element['infer'] === false) content = decodeDirectImport(content) ?? content;
  const item: { -readonly [K in keyof ProviderItem]: ProviderItem[K] } = { id, content };
  // Optional fields are dropped one by one when their type is wrong; the item stays.
  const { title, uri, score } = element;
  if (typeof title === 'string') item.title = title;
  if (typeof uri === 'string') item.uri = uri;
  const updatedAt = [element['updated_at'], element['updatedAt']].find((value) => typeof value === 'string');
  if (typeof updatedAt === 'string') item.updatedAt = updatedAt;
  if (typeof score === 'number' && Number.isFinite(score)) item.score = score;
  return item;
}

/**
 * Turns a parsed provider response into at most 5 items, in provider order.
 *
 * Hand-written rather than a valibot schema: valibot's object schemas accept arrays, and
 * §2 keeps an item while dropping each wrong-typed optional field on its own.
 *
 * @param value The parsed JSON of a 2xx answer.
 * @param mapping The adapter's collection and item fields.
 * @returns Up to 5 items; invalid elements are removed before the cap. Raw field lengths are
 *   not limited here (the renderer bounds them).
 * @throws {ProviderError} `invalid-response` when `value` is not a plain object whose
 *   collection field is an array (a top-level array included).
 * @see docs/design/providers.md §2
 */
export function parseItems(value: unknown, mapping: ItemMapping): ProviderItem[] {
  const collection = isPlainObject(value) ? value[mapping.collection] : undefined;
  if (!Array.isArray(collection)) throw new ProviderError('invalid-response');
  const items: ProviderItem[] = [];
  for (const element of collection as readonly unknown[]) {
    const item = parseElement(element, mapping);
    if (item === undefined) continue;
    items.push(item);
    // Items kept per search, after invalid elements are removed (docs/design/providers.md §2 step 3).
    if (items.length === SEARCH_LIMIT_ITEMS) break;
  }
  return items;
}
