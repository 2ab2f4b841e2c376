// The request models of the Mem0 server fake per option (mem0-services.md §2.2, §3, §5) and the
// OpenAPI document built from them (§2.7).
import type { FieldSpec, ModelSpec } from './fastapi-validation.ts';

/** The model-shaping options of the Mem0 server fake (see mem0-server.ts). */
export interface ModelOptions {
  readonly routes: 'stock' | 'polardb';
  readonly schema: 'tolerant' | 'strict' | 'strict-no-root-ids';
  readonly limitField: 'top_k' | 'limit';
  readonly legacy2025: boolean;
  /** Name of the search model in the OpenAPI document. */
  readonly searchSchemaName: string;
}

const OPTIONAL_STRING: FieldSpec = { type: 'string' };
const ROOT_IDS = ['user_id', 'run_id', 'agent_id'] as const;

/**
 * The search model. Stock: `query`, `user_id`, `run_id`, `agent_id`, `filters`, the limit
 * field, `threshold`, `explain`, `show_expired` (§2.7 order). PolarDB (unverified): `query`,
 * the limit field, `filters`, `user_id`, `agent_id`, `run_id`, `threshold`, `output_format`.
 * `strict-no-root-ids` leaves out the root ids.
 */
export function searchModel(options: ModelOptions): ModelSpec {
  const withRootIds = options.schema !== 'strict-no-root-ids';
  const fields: Record<string, FieldSpec> = { query: { type: 'string', required: true } };
  if (options.routes === 'stock') {
    if (withRootIds) for (const id of ROOT_IDS) fields[id] = OPTIONAL_STRING;
    fields['filters'] = { type: 'object' };
    fields[options.limitField] = { type: 'integer' };
    fields['threshold'] = { type: 'number' };
    fields['explain'] = { type: 'boolean' };
    fields['show_expired'] = { type: 'boolean' };
  } else {
    fields[options.limitField] = { type: 'integer' };
    fields['filters'] = { type: 'object' };
    if (withRootIds) for (const id of ['user_id', 'agent_id', 'run_id']) fields[id] = OPTIONAL_STRING;
    fields['threshold'] = { type: 'number' };
    fields['output_format'] = OPTIONAL_STRING;
  }
  return { name: options.searchSchemaName, fields, extra: options.schema === 'tolerant' ? 'ignore' : 'forbid' };
}

/**
 * The add model. Stock: `MemoryCreate` (§2.2; `legacy2025` has no `infer`, so it is dropped
 * or, in a strict schema, forbidden). PolarDB (§3, unverified): the documented add fields.
 * Root ids are always known here: an add needs them.
 */
export function addModel(options: ModelOptions): ModelSpec {
  const extra = options.schema === 'tolerant' ? 'ignore' : 'forbid';
  const fields: Record<string, FieldSpec> = { messages: { type: 'messages', required: true } };
  for (const id of ['user_id', 'agent_id', 'run_id']) fields[id] = OPTIONAL_STRING;
  fields['metadata'] = { type: 'object' };
  if (options.routes === 'stock') {
    fields['expiration_date'] = OPTIONAL_STRING;
    if (!options.legacy2025) fields['infer'] = { type: 'boolean' };
    fields['memory_type'] = OPTIONAL_STRING;
    fields['prompt'] = OPTIONAL_STRING;
    return { name: 'MemoryCreate', fields, extra };
  }
  fields['infer'] = { type: 'boolean' };
  fields['async_mode'] = { type: 'boolean' };
  fields['message_id'] = OPTIONAL_STRING;
  fields['categories'] = { type: 'any' };
  fields['timestamp'] = { type: 'any' };
  fields['expiration_date'] = OPTIONAL_STRING;
  fields['temperature'] = { type: 'number' };
  for (const id of ['org_id', 'project_id', 'app_id']) fields[id] = OPTIONAL_STRING;
  return { name: 'AddMemoryRequest', fields, extra };
}

/**
 * The OpenAPI document served at `GET /openapi.json`: FastAPI's shape, with
 * `components.schemas.<search model>.properties` in model order and `additionalProperties:
 * false` only in strict schemas (Pydantic's `extra="forbid"`).
 */
export function openApiDocument(options: ModelOptions, paths: { readonly search: string; readonly add: string }): unknown {
  const search = searchModel(options);
  const add = addModel(options);
  const ref = (name: string): unknown => ({ $ref: `#/components/schemas/${name}` });
  const operation = (summary: string, model: ModelSpec): unknown => ({
    summary,
    requestBody: { content: { 'application/json': { schema: ref(model.name) } }, required: true },
    responses: {
      '200': { description: 'Successful Response', content: { 'application/json': { schema: {} } } },
      '422': { description: 'Validation Error', content: { 'application/json': { schema: ref('HTTPValidationError') } } },
    },
    security: [{ HTTPBearer: [] }, { APIKeyHeader: [] }],
  });
  return {
    openapi: '3.1.0',
    info: { title: 'Mem0 REST APIs', description: 'A REST API for managing and searching memories.', version: '1.0.0' },
    paths: {
      [paths.add]: { post: operation('Create memories', add) },
      [paths.search]: { post: operation('Search memories', search) },
    },
    components: {
      schemas: {
        Message: modelSchema({ name: 'Message', extra: 'ignore', fields: { role: { type: 'string', required: true }, content: { type: 'string', required: true } } }),
        [add.name]: modelSchema(add),
        [search.name]: modelSchema(search),
        HTTPValidationError: { properties: { detail: { items: ref('ValidationError'), type: 'array', title: 'Detail' } }, type: 'object', title: 'HTTPValidationError' },
        ValidationError: {
          properties: {
            loc: { items: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, type: 'array', title: 'Location' },
            msg: { type: 'string', title: 'Message' },
            type: { type: 'string', title: 'Error Type' },
          },
          type: 'object',
          required: ['loc', 'msg', 'type'],
          title: 'ValidationError',
        },
      },
      securitySchemes: {
        HTTPBearer: { type: 'http', scheme: 'bearer' },
        APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
    },
  };
}

function modelSchema(model: ModelSpec): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(model.fields)) properties[name] = propertySchema(name, spec);
  const required = Object.entries(model.fields)
    .filter(([, spec]) => spec.required === true)
    .map(([name]) => name);
  const schema: Record<string, unknown> = {};
  if (model.extra === 'forbid') schema['additionalProperties'] = false;
  return Object.assign(schema, { properties, type: 'object', required, title: model.name });
}

function propertySchema(name: string, spec: FieldSpec): unknown {
  const title = name
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
  const base: Record<string, unknown> =
    spec.type === 'messages'
      ? { items: { $ref: '#/components/schemas/Message' }, type: 'array' }
      : spec.type === 'object'
        ? { additionalProperties: true, type: 'object' }
        : spec.type === 'any'
          ? {}
          : { type: spec.type };
  if (spec.required === true || spec.type === 'any') return { ...base, title };
  return { anyOf: [base, { type: 'null' }], title };
}
