// The operator-safe form of upstream text in the probe report (docs/design/probe.md §2, "Detail text"):
// credential redacted, terminal control and format characters removed, whitespace collapsed,
// cut to 300 code points.
import { cutCodePoints } from '../util/code-points.ts';

/** Longest detail text, in Unicode code points (docs/design/probe.md §2). */
export const MAX_DETAIL_CODE_POINTS = 300;

/** What replaces every occurrence of the credential. */
export const REDACTED = '[redacted]';

// C0, DEL and C1 are Cc; Cf covers bidi overrides, zero-width characters and U+FEFF.
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/gu;
const WHITESPACE_RUN = /\s+/gu;

/** Shortest piece of the credential redacted on its own (a shorter word is too common to judge). */
const MIN_PIECE_CODE_POINTS = 6;
/** A word of credential-like characters; a trailing `...` (an echoed prefix) belongs to it. */
const CREDENTIAL_WORD = /[A-Za-z0-9_~+/=.:-]+/gu;

/** Every occurrence of the credential, in any letter case (a service may echo it lowercased). */
function redact(text: string, credential: string): string {
  if (credential === '') return text;
  const secret = credential.toLowerCase();
  const lower = text.toLowerCase();
  let out = '';
  let from = 0;
  for (let at = lower.indexOf(secret); at !== -1; at = lower.indexOf(secret, from)) {
    out += `${text.slice(from, at)}${REDACTED}`;
    from = at + secret.length;
  }
  return out + text.slice(from);
}

/**
 * Removes pieces of the credential a service may echo: a prefix such as `sk-live-3f...` or a
 * suffix. Every word of credential-like characters whose lowercase form, without trailing
 * dots or colons, is a piece of the credential at least 6 long becomes `[redacted]`
 * (issue 25 §4.8: an exact match alone let an echoed lowercased key or its prefix through).
 * Runs last, once the text can no longer join pieces.
 */
function redactPieces(text: string, credential: string): string {
  if (credential === '') return text;
  const secret = credential.toLowerCase();
  return text.replace(CREDENTIAL_WORD, (word) => {
    const core = word.replace(/[.:]+$/u, '').toLowerCase();
    return core.length >= Math.min(MIN_PIECE_CODE_POINTS, secret.length) && secret.includes(core) ? REDACTED : word;
  });
}

/**
 * Removes the credential and every C0, C1, DEL and Cf character from upstream text, without
 * collapsing or cutting it. For short upstream strings (declared field names) that are printed
 * as they are otherwise.
 *
 * Redaction runs again after the removal, so a credential split by an inserted control
 * character is still caught.
 *
 * @param text Upstream text.
 * @param credential The resolved credential.
 * @returns The cleaned text.
 */
export function stripUnsafe(text: string, credential: string): string {
  return redactPieces(redact(redact(text, credential).replace(CONTROL_OR_FORMAT, ''), credential), credential);
}

/**
 * Turns a non-2xx response body into the detail text of a probe row.
 *
 * Whitespace runs (JS `\s`) become one space first, so line breaks and tabs separate words;
 * then control and format characters are removed, runs are collapsed again, the ends are
 * trimmed and the text is cut to 300 code points. The credential is redacted after every
 * step that could join its pieces, and before the cut, so no prefix of it can survive.
 *
 * @param body The decoded response body.
 * @param credential The resolved credential; every occurrence becomes `[redacted]`.
 * @returns At most 300 code points of single-line text; `""` for an empty body.
 * @see docs/design/probe.md §2 ("Detail text")
 */
export function sanitizeDetail(body: string, credential: string): string {
  let text = redact(body, credential).replace(WHITESPACE_RUN, ' ');
  text = stripUnsafe(text, credential).replace(WHITESPACE_RUN, ' ');
  text = redactPieces(redact(text, credential), credential).trim();
  return cutCodePoints(text, MAX_DETAIL_CODE_POINTS);
}
