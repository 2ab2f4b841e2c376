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

// Key text: base64, blanks and line ends, `:` and `,` of PEM headers, `\` of escaped newlines.
const KEY_TEXT = String.raw`[A-Za-z0-9+/=\s:,\\]`;
/** The literal every {@link PRIVATE_KEY} match starts with (the pattern is case-sensitive). */
export const PRIVATE_KEY_START = '-----BEGIN ';
/**
 * A PEM or PGP private-key block: `-----BEGIN … PRIVATE KEY-----` (or `PRIVATE KEY BLOCK-----`)
 * to its END line or, when a provider cut the block, as far as key text goes. The body may hold
 * `\` so that a key in a string literal with escaped newlines (`"…-----\nMIIE…"`) goes whole.
 * Used by the table and by the auto-recall query scrubber (docs/design/hooks.md §2.3 step 3).
 */
export const PRIVATE_KEY = new RegExp(
  // Key text runs without `-`, joined by at most 64 single `-` (`Proc-Type`, `DEK-Info` headers):
  // Bun's engine took seconds, or silently found no match, past ~64 KiB when the body was one
  // alternation repeated per character (`(?:[…]|-(?!----))*`); this form stays fast at 1 MiB.
  String.raw`${PRIVATE_KEY_START}(?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----${KEY_TEXT}*(?:-(?!----)${KEY_TEXT}*){0,64}(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----)?`,
  'g',
);

/** One kind of credential: its name in `[redacted:<kind>]` and what matches it. */
export interface SecretPattern {
  readonly kind: string;
  /** Global, linear-time; the whole match is replaced. */
  readonly pattern: RegExp;
  /**
   * Lower-case ASCII texts, one of which a text holds wherever the pattern matches in it (a
   * literal part of the pattern or of its lookbehind; `i` without `u` matches ASCII letters only
   * in ASCII letters): a text whose lower-case form holds none cannot match, so its scan, and
   * the pattern's compilation on first use, are skipped.
   */
  readonly anyOf: readonly string[];
  /** Optional check of a match (false: not a secret, left alone). */
  readonly accept?: (match: string) => boolean;
}

// A value of an assignment: quoted, or a run without whitespace, quotes, `,` and `;`.
const ASSIGNED_VALUE = String.raw`(?:"[^"\r\n]{8,200}"|'[^'\r\n]{8,200}'|[^\s"',;]{8,200})`;
// The words that make a name a secret's in an assignment.
const SECRET_WORDS = ['api_key', 'api-key', 'apikey', 'token', 'password', 'passwd', 'pwd', 'secret'];
// A name containing a secret word, then optional quote, blanks, `:` or `=`, blanks.
const SECRET_ASSIGNMENT = new RegExp(String.raw`(?<![A-Za-z0-9_.-])["']?[A-Za-z0-9_.-]{0,40}(?:${SECRET_WORDS.join('|')})[A-Za-z0-9_.-]{0,20}["']?[ \t]*[:=][ \t]*${ASSIGNED_VALUE}`, 'gi');

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

/**
 * A digit, or both lower and upper case: three single-class tests, linear in the length (the
 * former `/[a-z].*[A-Z]/` rescanned the rest of a 1 MiB credential from every letter).
 */
function digitOrMixedCase(credential: string): boolean {
  return /[0-9]/.test(credential) || (/[a-z]/.test(credential) && /[A-Z]/.test(credential));
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
  { kind: 'private-key', pattern: PRIVATE_KEY, anyOf: ['-----begin '] },
  { kind: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, anyOf: ['eyj'] },
  // The user part holds no `:`, so the split is unambiguous and each `://` costs one pass.
  // The password may hold `/`, `?`, `#` and up to three `@` (people paste `p@ssw0rd` unencoded):
  // it runs to the last `@` before the host; a later `@` after a `/` (a path) is not taken. A
  // port followed by a path (`localhost:3000/@user`) is not a password.
  {
    kind: 'url-userinfo',
    pattern: /(?<=[a-z][a-z0-9+.-]{0,30}:\/\/)[^\s/?#@<>"':]{1,200}:[^\s@<>"']{1,200}(?:@[^\s/?#@<>"']{1,200}){0,3}(?=@)/gi,
    anyOf: ['://'],
    accept: (match) => !/^[0-9]{1,5}(?:[/?#]|$)/.test(match.slice(match.indexOf(':') + 1)),
  },
  { kind: 'aws-access-key-id', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, anyOf: ['akia', 'asia', 'abia', 'acca'] },
  {
    kind: 'aws-secret-access-key',
    pattern: /(?<![A-Za-z0-9_])aws_?secret_?access_?key["']?[ \t]*[:=][ \t]*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])["']?/gi,
    anyOf: ['aws'],
  },
  // `_` may surround a token (`__ghp_…__`, a snake_case name): only letters and digits bound it.
  {
    kind: 'github-token',
    pattern: /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{36,255}(?![A-Za-z0-9])|github_pat_[A-Za-z0-9_]{22,255}(?![A-Za-z0-9_]))/g,
    anyOf: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  },
  { kind: 'gitlab-token', pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,255}(?![A-Za-z0-9_-])/g, anyOf: ['glpat-'] },
  { kind: 'slack-token', pattern: /(?<![A-Za-z0-9_-])xox[abposr]-[A-Za-z0-9-]{10,255}(?![A-Za-z0-9-])/g, anyOf: ['xox'] },
  { kind: 'npm-token', pattern: /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, anyOf: ['npm_'] },
  { kind: 'stripe-key', pattern: /(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,255}(?![A-Za-z0-9])/g, anyOf: ['_live_', '_test_'] },
  // OpenAI-style `sk-…` and `sk-proj-…` (also Anthropic's `sk-ant-…`): a digit is required, so
  // prose such as `sk-learn-compatible-estimators` is not one.
  { kind: 'openai-key', pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,255}(?![A-Za-z0-9_-])/g, anyOf: ['sk-'], accept: (match) => /[0-9]/.test(match) },
  { kind: 'google-api-key', pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g, anyOf: ['aiza'] },
  // A digit or mixed case in the credential: prose such as `Bearer resource_metadata=` is not one.
  { kind: 'bearer', pattern: /(?<![A-Za-z0-9])bearer[ \t]+[A-Za-z0-9._~+/-]{16,}=*/gi, anyOf: ['bearer'], accept: (match) => digitOrMixedCase(match.slice(6)) },
  // `Authorization: Token …` (Django REST framework, GitHub's classic header), same check as bearer.
  {
    kind: 'authorization-token',
    pattern: /(?<![A-Za-z0-9])authorization["']?[ \t]*[:=][ \t]*["']?token[ \t]+[A-Za-z0-9._~+/-]{8,}=*/gi,
    anyOf: ['authorization'],
    accept: (match) => digitOrMixedCase(match.slice(match.search(/token[ \t]/i) + 5)),
  },
  { kind: 'basic', pattern: /(?<![A-Za-z0-9])basic[ \t]+[A-Za-z0-9+/]{8,}={0,2}(?![A-Za-z0-9+/=])/gi, anyOf: ['basic'], accept: basicCredential },
  { kind: 'assignment', pattern: SECRET_ASSIGNMENT, anyOf: SECRET_WORDS, accept: (match) => looksLikeSecretValue(assignedValue(match)) },
];
