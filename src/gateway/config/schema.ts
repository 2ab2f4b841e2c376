// valibot schemas of the Frontend MCP configuration (docs/design/frontend-mcp.md §2.3) and the normalized
// types inferred from them (§2.4). Each schema is one step of the spec's check order; validate-config.ts
// runs the ordered pre-pass (root, version, unknown keys, record keys) and then these, in table order.
import * as v from 'valibot';
import { hasAtMostCodePoints } from '../../util/code-points.ts';
import { isPlainObject } from '../../util/plain-object.ts';

/** Longest URL, in UTF-16 code units. */
export const MAX_URL_LENGTH = 2048;
/** Most headers one server may configure. */
export const MAX_HEADERS = 16;
/** Longest configured description, in Unicode code points. */
export const MAX_DESCRIPTION_CODE_POINTS = 1200;
/** Exactly one `${VAR}` reference and nothing else. */
export const VARIABLE_REFERENCE = /^\$\{([A-Z_][A-Z0-9_]*)\}$/;

/**
 * The messages of docs/design/frontend-mcp.md §2.3 that the schemas attach to their issues, written as
 * the spec's table writes them: validate-config.ts fills `<key>`, `<server>/<tool>` and `<name>`
 * with display keys.
 */
export const SCHEMA_MESSAGES = {
  serverEnabled: 'Frontend MCP server <key> enabled must be a boolean.',
  urlInvalid: 'Frontend MCP URL is invalid.',
  urlCredentials: 'Frontend MCP URL must not contain credentials or a fragment.',
  urlHttps: 'Remote Frontend MCP requires HTTPS; local HTTP cannot carry headers.',
  refresh: 'Frontend MCP server <key> refreshOnListChanged must be a boolean.',
  headersObject: 'Frontend MCP headers must be an object.',
  tooManyHeaders: 'Frontend MCP has too many headers.',
  invalidHeader: 'Frontend MCP contains an invalid header.',
  headerReference: 'Frontend MCP header <name> must be a literal value or exactly one ${VARIABLE} reference.',
  toolEnabled: 'Frontend MCP tool <server>/<tool> enabled must be a boolean.',
  readOnly: 'Enabled Frontend MCP tools must explicitly declare readOnly.',
  approval: 'Frontend MCP tool approval must be "required" or "none".',
  writable: 'Writable Frontend MCP tools require approval=required.',
  readOnlyApproval: 'Read-only Frontend MCP tools cannot require approval.',
  descriptionString: 'Frontend MCP tool description must be a string: <server>/<tool>',
  descriptionLong: 'Frontend MCP tool description exceeds 1200 characters: <server>/<tool>',
} as const;

const M = SCHEMA_MESSAGES;

// `URL.hostname` keeps the brackets of an IPv6 literal, so `[::1]` is compared with them
// (the reference compared with `::1`, which never matched).
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);
const HEADER_NAME = /^[a-z0-9-]{1,80}$/;
// The transport owns these; letting the file set them would break or spoof the protocol.
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'content-type',
  'accept',
  'connection',
  'transfer-encoding',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);
// C0 controls except tab, and DEL (docs/design/frontend-mcp.md §2.3, "header value").
const FORBIDDEN_VALUE_CHAR = /[\x00-\x08\x0a-\x1f\x7f]/;

/**
 * A strict integer policy value with its default: a JSON integer in `min`…`max`. Decision:
 * strings and booleans are not coerced (the reference used `Number()`).
 */
function policyInteger(min: number, max: number, fallback: number) {
  const message = `Frontend MCP policy value must be ${min}-${max}.`;
  return v.optional(v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message)), fallback);
}

/** The server's `url` (docs/design/frontend-mcp.md §2.3 and improvement 1); the URL never appears in a message. */
const UrlSchema = v.pipe(
  v.string(M.urlInvalid),
  v.maxLength(MAX_URL_LENGTH, M.urlInvalid),
  v.check((raw) => URL.canParse(raw), M.urlInvalid),
  v.check((raw) => {
    const url = new URL(raw);
    return url.username === '' && url.password === '' && !raw.includes('#');
  }, M.urlCredentials),
);

/** True when `headers` configures at least one header (a non-object counts: it is checked later). */
function hasHeaders(headers: unknown): boolean {
  return headers !== undefined && (!isPlainObject(headers) || Object.keys(headers).length > 0);
}

/**
 * Step 1 of a server: `enabled`, then `url`, then the scheme rule, which looks at `headers`
 * only to know whether any are configured. A missing `url` reports the URL message.
 */
export const ServerConnectionSchema = v.pipe(
  v.object(
    {
      enabled: v.optional(v.boolean(M.serverEnabled), false),
      url: UrlSchema,
      headers: v.optional(v.unknown()),
    },
    M.urlInvalid,
  ),
  v.check(({ url, headers }) => {
    const { protocol, hostname } = new URL(url);
    return protocol === 'https:' || (protocol === 'http:' && LOOPBACK_HOSTS.has(hostname) && !hasHeaders(headers));
  }, M.urlHttps),
  v.transform(({ enabled, url }) => ({ enabled, url })),
);

/** One header in file order: its lowercased name, its value as written, and whether the name repeats. */
const HeaderEntrySchema = v.pipe(
  v.object({ name: v.string(), value: v.unknown(), repeated: v.boolean() }),
  v.check(({ name, repeated }) => HEADER_NAME.test(name) && !RESERVED_HEADERS.has(name) && !repeated, M.invalidHeader),
  v.check(({ value }) => typeof value === 'string' && value !== '' && !FORBIDDEN_VALUE_CHAR.test(value), M.invalidHeader),
  // Improvement 3: a `${` that is not one whole reference is an error, never sent literally.
  v.check(({ value }) => typeof value === 'string' && (!value.includes('${') || VARIABLE_REFERENCE.test(value)), M.headerReference),
  v.transform(({ name, value }): [string, string] => [name, String(value)]),
);

/** `headers`: at most 16, names lowercased, values literal or exactly `${VAR}`; absent is `{}`. */
const HeadersSchema = v.optional(
  v.pipe(
    v.custom<Record<string, unknown>>(isPlainObject, M.headersObject),
    v.check((headers) => Object.keys(headers).length <= MAX_HEADERS, M.tooManyHeaders),
    v.transform((headers) => {
      const seen = new Set<string>();
      return Object.entries(headers).map(([raw, value]) => {
        const name = raw.toLowerCase();
        const repeated = seen.has(name);
        seen.add(name);
        return { name, value, repeated };
      });
    }),
    v.array(HeaderEntrySchema),
    v.transform((entries): Readonly<Record<string, string>> => Object.fromEntries(entries)),
  ),
  {},
);

/** Step 2 of a server: its limits and headers (as written; `${VAR}` is resolved afterwards). */
export const ServerOptionsSchema = v.object({
  connectTimeoutMs: policyInteger(100, 30000, 8000),
  refreshOnListChanged: v.optional(v.boolean(M.refresh), false),
  headers: HeadersSchema,
});

/**
 * Step 1 of a tool policy: `enabled`, `readOnly` (required when enabled), `approval`, then the
 * two combinations the spec forbids. A disabled policy without readOnly is treated as
 * writable: the stricter reading.
 */
export const ToolModeSchema = v.pipe(
  v.object({
    enabled: v.optional(v.boolean(M.toolEnabled), false),
    readOnly: v.optional(v.boolean(M.readOnly)),
  }),
  v.check(({ enabled, readOnly }) => !enabled || readOnly !== undefined, M.readOnly),
  v.transform(({ enabled, readOnly }) => ({ enabled, readOnly: readOnly === true })),
);

const APPROVALS = ['required', 'none'] as const;

/** Step 2 of a tool policy: `approval`, `"none"` when absent. */
export const ToolApprovalSchema = v.object({ approval: v.optional(v.picklist(APPROVALS, M.approval), 'none') });

/** Step 3 of a tool policy: the two combinations of steps 1 and 2 that the spec forbids. */
export const ToolCombinationSchema = v.pipe(
  v.object({ enabled: v.boolean(), readOnly: v.boolean(), approval: v.picklist(APPROVALS) }),
  // An enabled tool has declared readOnly (step 1), so `!readOnly` here means `readOnly: false`.
  v.check(({ enabled, readOnly, approval }) => !(enabled && !readOnly && approval !== 'required'), M.writable),
  // Checked even for disabled tools: the combination is contradictory, whatever the switch.
  v.check(({ readOnly, approval }) => !(readOnly && approval === 'required'), M.readOnlyApproval),
);

const ToolLimitsEntriesSchema = v.object({
  timeoutMs: policyInteger(100, 30000, 8000),
  maxResultBytes: policyInteger(1024, 65536, 32768),
  maxCallsPerTurn: policyInteger(1, 4, 2),
  // Decision: an over-long value is rejected, never cut silently (docs/design/frontend-mcp.md §2.3).
  description: v.optional(
    v.pipe(
      v.string(M.descriptionString),
      v.trim(),
      v.check((text) => hasAtMostCodePoints(text, MAX_DESCRIPTION_CODE_POINTS), M.descriptionLong),
    ),
  ),
});

type ToolLimits = Omit<v.InferOutput<typeof ToolLimitsEntriesSchema>, 'description'> & { description?: string };

/** Step 4 of a tool policy: the limits, then the description (trimmed; empty is omitted). */
export const ToolLimitsSchema = v.pipe(
  ToolLimitsEntriesSchema,
  v.transform(({ description, ...limits }): ToolLimits => (description === undefined || description === '' ? limits : { ...limits, description })),
);

/** Whether a tool needs a per-operation user approval. */
export type FrontendMcpApproval = v.InferOutput<typeof ToolApprovalSchema>['approval'];

/**
 * One tool policy, with every default applied (docs/design/frontend-mcp.md §2.3): `timeoutMs` in
 * milliseconds, `maxResultBytes` in UTF-8 bytes of the serialized envelope, `maxCallsPerTurn`
 * counted calls per user turn, `description` trimmed (at most 1200 code points) and absent when empty.
 */
export type FrontendMcpToolPolicy = Readonly<v.InferOutput<typeof ToolCombinationSchema> & v.InferOutput<typeof ToolLimitsSchema>>;

/** The transport of one server: Streamable HTTP only; header names lowercased, `${VAR}` resolved for enabled servers. */
export interface FrontendMcpTransport {
  readonly type: 'streamable-http';
  readonly url: v.InferOutput<typeof ServerConnectionSchema>['url'];
  readonly headers: v.InferOutput<typeof ServerOptionsSchema>['headers'];
}

/** One configured server, in file order; `connectTimeoutMs` bounds initialize plus every tools/list page. */
export type FrontendMcpServerConfig = Readonly<
  Pick<v.InferOutput<typeof ServerConnectionSchema>, 'enabled'> &
    Omit<v.InferOutput<typeof ServerOptionsSchema>, 'headers'> & {
      key: string;
      transport: FrontendMcpTransport;
      /** Raw remote tool name → policy, in file order. */
      tools: Readonly<Record<string, FrontendMcpToolPolicy>>;
    }
>;

/** The normalized configuration (docs/design/frontend-mcp.md §2.4). */
export interface FrontendMcpConfig {
  readonly version: 1;
  readonly servers: readonly FrontendMcpServerConfig[];
  /**
   * The proxy variables the configuration was loaded with (docs/design/config.md §12), present
   * only when one was set. Plain data, so a copy of the configuration routes as the original
   * does. A proxy URL may hold credentials: never print this field.
   */
  readonly proxyEnvironment?: Readonly<Record<string, string>>;
}
