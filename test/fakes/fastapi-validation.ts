// FastAPI/Pydantic v2 body validation as the stock Mem0 REST server answers it: 422 with the
// list form `{"detail":[{type, loc, msg, input}]}` (mem0-services.md §2.3), extra_forbidden
// entries for strict models, and FastAPI's body-reading rules.
import type { RecordedRequest } from './fake-server.ts';
import { jsonReply, type FakeReply } from './reply.ts';
import { isPlainObject } from './strict-json.ts';

/** Field types the Mem0 request models use; `messages` is `List[Message{role, content}]`. */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'messages' | 'any';

/** One model field; optional fields accept `null` (Pydantic `Optional[...] = None`). */
export interface FieldSpec {
  readonly type: FieldType;
  readonly required?: boolean;
}

/** A request model: fields in declaration order, and what happens to unknown keys. */
export interface ModelSpec {
  readonly name: string;
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** `forbid` answers 422 `extra_forbidden` per unknown key; `ignore` drops them. */
  readonly extra: 'ignore' | 'forbid';
}

/** One entry of FastAPI's 422 `detail` list. */
export interface ValidationIssue {
  readonly type: string;
  readonly loc: readonly (string | number)[];
  readonly msg: string;
  readonly input: unknown;
  readonly ctx?: Readonly<Record<string, unknown>>;
}

/** The outcome of reading and validating a body. */
export type BodyValidation = { readonly ok: true; readonly body: Record<string, unknown> } | { readonly ok: false; readonly reply: FakeReply };

const MESSAGES = {
  missing: 'Field required',
  string_type: 'Input should be a valid string',
  int_type: 'Input should be a valid integer',
  int_from_float: 'Input should be a valid integer, got a number with a fractional part',
  float_type: 'Input should be a valid number',
  bool_type: 'Input should be a valid boolean',
  dict_type: 'Input should be a valid dictionary',
  list_type: 'Input should be a valid list',
  model_attributes_type: 'Input should be a valid dictionary or object to extract fields from',
  extra_forbidden: 'Extra inputs are not permitted',
} as const;

/**
 * Reads a JSON body the way FastAPI does and validates it against a model.
 *
 * - A non-JSON `content-type` hands the raw text to the model (422 `model_attributes_type`);
 *   an empty body is 422 `missing` at `["body"]`.
 * - Bytes that are not UTF-8 → 400 `{"detail":"There was an error parsing the body"}`;
 *   invalid JSON → 422 `json_invalid`.
 * - Then every field in declaration order, then every unknown key when `extra` is `forbid`.
 */
export function validateBody(request: RecordedRequest, model: ModelSpec): BodyValidation {
  const contentType = request.headers['content-type'];
  const text = decodeUtf8(request.body);
  if (contentType !== undefined && !/^application\/([\w.+-]*\+)?json\s*(;|$)/i.test(contentType)) {
    return fail([issue('model_attributes_type', ['body'], request.text)]);
  }
  if (request.body.byteLength === 0) return fail([issue('missing', ['body'], null)]);
  if (text === undefined) return { ok: false, reply: jsonReply(400, { detail: 'There was an error parsing the body' }) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail([{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }]);
  }
  if (!isPlainObject(value)) return fail([issue('model_attributes_type', ['body'], value)]);
  const issues = validateObject(value, model);
  return issues.length === 0 ? { ok: true, body: value } : fail(issues);
}

/** Validates a parsed object against a model, in Pydantic's order. */
export function validateObject(body: Record<string, unknown>, model: ModelSpec): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [name, spec] of Object.entries(model.fields)) {
    if (!(name in body)) {
      if (spec.required === true) issues.push(issue('missing', ['body', name], body));
      continue;
    }
    const value = body[name];
    if (value === null && spec.required !== true) continue;
    issues.push(...checkType(value, spec.type, ['body', name]));
  }
  if (model.extra === 'forbid') {
    for (const [name, value] of Object.entries(body)) {
      if (!(name in model.fields)) issues.push(issue('extra_forbidden', ['body', name], value));
    }
  }
  return issues;
}

/** The 422 reply for a list of issues. */
export function unprocessable(issues: readonly ValidationIssue[]): FakeReply {
  return jsonReply(422, { detail: issues });
}

function checkType(value: unknown, type: FieldType, loc: readonly (string | number)[]): ValidationIssue[] {
  switch (type) {
    case 'any':
      return [];
    case 'string':
      return typeof value === 'string' ? [] : [issue('string_type', loc, value)];
    case 'integer':
      if (typeof value !== 'number') return [issue('int_type', loc, value)];
      return Number.isInteger(value) ? [] : [issue('int_from_float', loc, value)];
    case 'number':
      return typeof value === 'number' ? [] : [issue('float_type', loc, value)];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [issue('bool_type', loc, value)];
    case 'object':
      return isPlainObject(value) ? [] : [issue('dict_type', loc, value)];
    case 'messages':
      return checkMessages(value, loc);
  }
}

function checkMessages(value: unknown, loc: readonly (string | number)[]): ValidationIssue[] {
  if (!Array.isArray(value)) return [issue('list_type', loc, value)];
  return value.flatMap((message, index) => {
    const at = [...loc, index];
    if (!isPlainObject(message)) return [issue('model_attributes_type', at, message)];
    return (['role', 'content'] as const).flatMap((field) => (field in message ? checkType(message[field], 'string', [...at, field]) : [issue('missing', [...at, field], message)]));
  });
}

function issue(type: keyof typeof MESSAGES, loc: readonly (string | number)[], input: unknown): ValidationIssue {
  return { type, loc, msg: MESSAGES[type], input };
}

function fail(issues: readonly ValidationIssue[]): BodyValidation {
  return { ok: false, reply: unprocessable(issues) };
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
