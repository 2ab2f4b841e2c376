// The one reviewed table of credential patterns (docs/design/config.md §4.3): `redactSecrets`
// replaces each match in retrieved content and titles, and the auto-recall query scrubber
// (hooks/sanitize-query.ts, docs/design/hooks.md §2.3) takes its bearer, JWT and secret-name
// patterns from here. Every pattern runs in linear time: no nested quantifiers, and runs start
// only at a run boundary (lookbehind), so the engine never rescans a long run.

/** Names that make an assignment a secret (`password=…`, `"api_key": "…"`), any case. */
export const SECRET_NAME = /api_key|api-key|apikey|token|password|secret/i;
/** The scrubber's `bearer` credential: `bearer`, blanks, a token68-like run (docs/design/hooks.md §2.3 step 6). */
export const SCRUB_BEARER = /bearer[ \t]+[A-Za-z0-9._~+/=-]+/gi;
/** The scrubber's JWT shape: three runs of 8+ `[A-Za-z0-9_-]` joined by two dots (step 7). */
export const SCRUB_JWT = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;

/** One kind of credential: its name in `[redacted:<kind>]` and what matches it. */
export interface SecretPattern {
  readonly kind: string;
  /** Global, linear-time; the whole match is replaced. */
  readonly pattern: RegExp;
  /** Optional check of a match (false: not a secret, left alone). */
  readonly accept?: (match: string) => boolean;
}

// A value of an assignment: quoted, or a run without whitespace, quotes, `,` and `;`.
const ASSIGNED_VALUE = String.raw`(?:"[^"\r\n]{8,200}"|'[^'\r\n]{8,200}'|[^\s"',;]{8,200})`;
// A name containing a secret word, then optional quote, blanks, `:` or `=`, blanks.
const SECRET_ASSIGNMENT = new RegExp(
  String.raw`(?<![A-Za-z0-9_.-])["']?[A-Za-z0-9_.-]{0,40}(?:api_key|api-key|apikey|access_token|auth_token|password|passwd|secret|client_secret)[A-Za-z0-9_.-]{0,20}["']?[ \t]*[:=][ \t]*${ASSIGNED_VALUE}`,
  'gi',
);

/** The value part of an assignment match, without quotes. */
function assignedValue(match: string): string {
  const value = match.slice(match.search(/[:=]/) + 1).trim();
  return value.replace(/^["']|["']$/g, '');
}

/**
 * An assigned value that looks like a credential rather than prose or a placeholder: at least
 * 8 characters, at least two of lower case, upper case, digits and symbols, and not a
 * placeholder (`<…>`, `${…}`, `$NAME`, `{{…}}`, `***`, an ALL_CAPS variable name, a path or URL).
 */
export function looksLikeSecretValue(value: string): boolean {
  if (value.length < 8 || /^[<$*{%[(]|^\.{0,2}\//.test(value) || /^[A-Z][A-Z0-9_]*$/.test(value) || /:\/\//.test(value)) return false;
  if (/\s/.test(value) && !/^\S+$/.test(value.trim())) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9\s]/].filter((pattern) => pattern.test(value)).length;
  return classes >= 2 && /[0-9]/.test(value);
}

function basicCredential(match: string): boolean {
  const encoded = match.replace(/^basic[ \t]+/i, '');
  try {
    return atob(encoded).includes(':');
  } catch {
    return false;
  }
}

/**
 * The reviewed table, in the order it is applied (longer, more specific shapes first).
 *
 * @see docs/design/config.md §4.3
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  // The body runs to the END line or, when a provider cut the block, as far as key text goes.
  { kind: 'private-key', pattern: /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----(?:[A-Za-z0-9+/=\s:,]|-(?!----))*(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----)?/g },
  { kind: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  // The user part holds no `:`, so the split is unambiguous and each `://` costs one pass.
  { kind: 'url-userinfo', pattern: /(?<=[a-z][a-z0-9+.-]{0,30}:\/\/)[^\s/?#@<>"':]{1,200}:[^\s/?#@<>"']{1,200}(?=@)/gi },
  { kind: 'aws-access-key-id', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  {
    kind: 'aws-secret-access-key',
    pattern: /(?<![A-Za-z0-9_])aws_?secret_?access_?key["']?[ \t]*[:=][ \t]*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])["']?/gi,
  },
  { kind: 'github-token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])/g },
  { kind: 'gitlab-token', pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,255}(?![A-Za-z0-9_-])/g },
  { kind: 'slack-token', pattern: /(?<![A-Za-z0-9_-])xox[abposr]-[A-Za-z0-9-]{10,255}(?![A-Za-z0-9-])/g },
  { kind: 'npm-token', pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g },
  // A digit or mixed case in the credential: prose such as `Bearer resource_metadata=` is not one.
  { kind: 'bearer', pattern: /(?<![A-Za-z0-9])bearer[ \t]+[A-Za-z0-9._~+/-]{16,}=*/gi, accept: (match) => /[0-9]|[a-z].*[A-Z]|[A-Z].*[a-z]/.test(match.slice(6).trim()) },
  { kind: 'basic', pattern: /(?<![A-Za-z0-9])basic[ \t]+[A-Za-z0-9+/]{8,}={0,2}(?![A-Za-z0-9+/=])/gi, accept: basicCredential },
  { kind: 'assignment', pattern: SECRET_ASSIGNMENT, accept: (match) => looksLikeSecretValue(assignedValue(match)) },
];
