// The one item limit of a search (docs/design/profile-v1.md §5.3; docs/design/providers.md §2,
// §3, §5.2): what every request asks for, what parsing keeps and what the envelope holds.

/** Items one search asks for and keeps at most, in items; never configurable. */
export const SEARCH_LIMIT_ITEMS = 5;
