// context_remember content rules (docs/design/write.md §2.1), shared by the MCP tool and the
// write-confirmation Hook (docs/design/hooks.md §3.2 row 3) so a call the server would reject is denied
// before the user is asked. The content is never normalized (docs/design/write.md §2.2).
import { hasAtMostCodePoints } from '../util/code-points.ts';

/** Longest accepted content, in Unicode code points (an unpaired surrogate counts as one). */
export const MAX_REMEMBER_CONTENT_CODE_POINTS = 4000;

/** Exact messages of docs/design/write.md §2.1, by row. */
export const REMEMBER_CONTENT_MESSAGES = {
  notString: 'Memory content must be a string.',
  tooLong: 'Memory content must contain at most 4000 Unicode characters.',
  notVisible: 'Memory content must contain valid visible text.',
} as const;

/** The outcome of checking one content value. */
export type RememberContentResult = { readonly ok: true; readonly content: string } | { readonly ok: false; readonly message: string };

// An unpaired surrogate: a high one not followed by a low one, or a low one not preceded by
// a high one. Single-unit lookarounds, so it runs in linear time.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// One code point that is not White_Space, Cc or Cf (astral Cf such as U+110BD included).
const VISIBLE_CODE_POINT = /[^\p{White_Space}\p{Cc}\p{Cf}]/u;

/**
 * Checks a `content` value against docs/design/write.md §2.1, rows 1–3 in order.
 *
 * @param value The raw `content` value (absent counts as `undefined`).
 * @returns `{ok: true, content}` with the value unchanged, or the first failing row's exact
 *   message.
 * @see docs/design/write.md §2.1
 */
export function checkRememberContent(value: unknown): RememberContentResult {
  if (typeof value !== 'string') return { ok: false, message: REMEMBER_CONTENT_MESSAGES.notString };
  if (!hasAtMostCodePoints(value, MAX_REMEMBER_CONTENT_CODE_POINTS)) {
    return { ok: false, message: REMEMBER_CONTENT_MESSAGES.tooLong };
  }
  // Lone surrogates first: in `u` mode a lone surrogate would count as a visible code point.
  if (LONE_SURROGATE.test(value) || !VISIBLE_CODE_POINT.test(value)) {
    return { ok: false, message: REMEMBER_CONTENT_MESSAGES.notVisible };
  }
  return { ok: true, content: value };
}
