// The shapes `check` reads from the hosts' managed files (Qwen Code's, docs/design/examples.md §4,
// §5; Claude Code's, Gemini CLI's and Codex's config.toml, docs/design/agents.md) as valibot schemas. The files belong to the host, not to us, so the reading is lenient: a field
// of the wrong type reads as absent (each item then says what to set), and a key we do not read
// is ignored. Only own fields count: every object is a parsed JSON object first.
import * as v from 'valibot';
import { isPlainObject } from '../util/plain-object.ts';

/** A JSON object (not an array, not null), with its fields as parsed. */
export const JsonObjectSchema = v.custom<Record<string, unknown>>(isPlainObject);

/** A list of strings; anything else is not one. */
export const StringListSchema = v.array(v.string());

/** Absent, or a field of the wrong type: both read as undefined. */
function lenient<const T extends v.GenericSchema>(schema: T): v.SchemaWithFallback<v.OptionalSchema<T, undefined>, undefined> {
  return v.fallback(v.optional(schema), undefined);
}

/** An object schema that first requires a JSON object, so an array or a prototype never counts. */
function jsonObject<const T extends v.ObjectEntries>(entries: T): v.SchemaWithPipe<readonly [typeof JsonObjectSchema, v.ObjectSchema<T, undefined>]> {
  return v.pipe(JsonObjectSchema, v.object(entries));
}

/** The fields of an MCP server entry check reads (Qwen Code's `--mcp-config`, and the JSON hosts'). */
export const ServerEntrySchema = jsonObject({
  command: lenient(v.string()),
  args: lenient(StringListSchema),
  includeTools: lenient(StringListSchema),
  excludeTools: lenient(StringListSchema),
  alwaysLoadTools: v.optional(v.unknown()),
  /** Claude Code's: the tools are loaded up front only when true. */
  alwaysLoad: v.optional(v.unknown()),
  /** Gemini CLI's: true skips every confirmation. */
  trust: v.optional(v.unknown()),
});

/** A server entry as check reads it. */
export type ServerEntry = v.InferOutput<typeof ServerEntrySchema>;

/** A file with `mcpServers`: the entries stay raw objects, each read with {@link ServerEntrySchema}. */
export const McpServersFileSchema = jsonObject({ mcpServers: lenient(JsonObjectSchema) });

/** One command Hook of a settings file: the fields the Hook items compare. */
export const HookSchema = jsonObject({
  command: lenient(v.string()),
  shell: v.optional(v.unknown()),
  timeout: v.optional(v.unknown()),
});

/** A command Hook as check reads it. */
export type Hook = v.InferOutput<typeof HookSchema>;

/** One matcher group of a Hook event: its matcher as written and its Hook objects. */
export const HookGroupSchema = jsonObject({
  matcher: v.optional(v.unknown()),
  hooks: lenient(v.array(v.unknown())),
});

/** The fields of Qwen Code's managed system settings check reads (docs/design/examples.md §5). */
export const QwenSettingsSchema = jsonObject({
  permissions: lenient(jsonObject({ allow: lenient(StringListSchema), ask: lenient(StringListSchema) })),
  hooks: lenient(JsonObjectSchema),
  disableAllHooks: v.optional(v.unknown()),
  slashCommands: lenient(jsonObject({ disabled: lenient(StringListSchema) })),
});

/** Qwen Code's managed settings as check reads them. */
export type QwenSettings = v.InferOutput<typeof QwenSettingsSchema>;

/** The fields of Claude Code's managed settings and Gemini CLI's system settings check reads (docs/design/agents.md). */
export const HostSettingsSchema = jsonObject({
  permissions: lenient(jsonObject({ allow: lenient(StringListSchema), ask: lenient(StringListSchema) })),
  tools: lenient(jsonObject({ allowed: lenient(StringListSchema) })),
  hooks: lenient(JsonObjectSchema),
  disableAllHooks: v.optional(v.unknown()),
});

/** Claude Code's or Gemini CLI's settings as check reads them. */
export type HostSettings = v.InferOutput<typeof HostSettingsSchema>;

/** The fields of a Codex `[mcp_servers.<key>]` table check reads (docs/design/agents.md). */
export const CodexServerSchema = jsonObject({
  command: lenient(v.string()),
  args: lenient(StringListSchema),
  enabled_tools: lenient(StringListSchema),
  disabled_tools: lenient(StringListSchema),
  enabled: v.optional(v.unknown()),
  tools: lenient(jsonObject({ context_remember: lenient(jsonObject({ approval_mode: v.optional(v.unknown()) })) })),
});

/** A Codex server table as check reads it. */
export type CodexServer = v.InferOutput<typeof CodexServerSchema>;

/** The top-level fields of Codex's `config.toml` check reads. */
export const CodexConfigSchema = jsonObject({
  mcp_servers: lenient(JsonObjectSchema),
  hooks: lenient(JsonObjectSchema),
  approvals_reviewer: v.optional(v.unknown()),
});

/**
 * Reads `value` with `schema`, or says it is not that shape.
 *
 * @returns The typed view, or undefined when `value` is not a JSON object of that shape.
 */
export function readShape<const T extends v.GenericSchema>(schema: T, value: unknown): v.InferOutput<T> | undefined {
  const result = v.safeParse(schema, value);
  return result.success ? result.output : undefined;
}

/** Whether `value` is a JSON object (the raw form other items read by key). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return v.is(JsonObjectSchema, value);
}

/** `value` when it is a list of strings, else undefined. */
export function stringArray(value: unknown): string[] | undefined {
  return v.is(StringListSchema, value) ? value : undefined;
}
