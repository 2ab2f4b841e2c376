// The published contract files, imported as JSON so the build embeds them. tools/list
// advertises them without `$schema`, `$id` and `title` (docs/design/profile-v1.md §3.3, docs/design/write.md §2.3).
import searchInput from '../../contracts/v1/context-search-input.schema.json' with { type: 'json' };
import searchOutput from '../../contracts/v1/context-search-output.schema.json' with { type: 'json' };
import rememberInput from '../../contracts/write/context-remember-input.schema.json' with { type: 'json' };

/** A JSON Schema object as advertised in tools/list. */
export type AdvertisedSchema = { readonly type: 'object' } & Readonly<Record<string, unknown>>;

/** Removes the document-level keys `$schema`, `$id` and `title`. */
export function advertised(schema: Readonly<Record<string, unknown>>): AdvertisedSchema {
  const { $schema: _schema, $id: _id, title: _title, ...rest } = schema;
  return rest as AdvertisedSchema;
}

/** context_search `inputSchema`. */
export const SEARCH_INPUT_SCHEMA: AdvertisedSchema = advertised(searchInput);
/** context_search `outputSchema`. */
export const SEARCH_OUTPUT_SCHEMA: AdvertisedSchema = advertised(searchOutput);
/** context_remember `inputSchema`. */
export const REMEMBER_INPUT_SCHEMA: AdvertisedSchema = advertised(rememberInput);
