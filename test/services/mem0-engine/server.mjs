// The real Mem0 engine (`mem0ai/oss` 3.3.1) behind the stock Mem0 REST server's routes and
// authentication, for tests (mem0-services.md §2, §4). Runs under Node.js only (the in-memory
// vector store uses the native better-sqlite3 addon), offline, on 127.0.0.1 with a free port.
//
// Usage: MEM0_ENGINE_API_KEY=<key> node server.mjs
// Prints one line, `http://127.0.0.1:<port>`, once it answers requests. Stops on SIGTERM,
// SIGINT or the end of stdin (the parent went away) and removes its temporary directory.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

/** Dimension of the hash embedder's vectors. */
const EMBEDDING_DIMENSION = 256;
/** Largest request body read, in bytes. */
const MAX_BODY_BYTES = 1024 * 1024;
/** The fact the stub model "extracts" for an inferred add (mem0-services.md §4). */
const STUB_FACTS = '{"memory":[{"id":"0","text":"Bob likes coffee","attributed_to":"user"}]}';
const ENTITY_IDS = ['user_id', 'agent_id', 'run_id'];

const AUTH = {
  required: 'Authentication required. Provide a Bearer token or X-API-Key header.',
  invalidKey: 'Invalid API key.',
  invalidToken: 'Invalid or expired token.',
};
const ADD_NEEDS_ID = 'At least one identifier (user_id, agent_id, run_id) is required.';
const SEARCH_NEEDS_SCOPE = "filters must contain at least one of: user_id, agent_id, run_id. Example: filters={'user_id': 'u1'}";

// ---------------------------------------------------------------------------------------------
// Environment: no telemetry, no notices, nothing under the real home directory (§4).

const apiKey = process.env.MEM0_ENGINE_API_KEY;
if (typeof apiKey !== 'string' || apiKey === '') {
  process.stderr.write('mem0-engine: MEM0_ENGINE_API_KEY must hold the API key.\n');
  process.exit(1);
}
const home = mkdtempSync(join(tmpdir(), 'mem0-engine-'));
process.env.HOME = home;
process.env.USERPROFILE = home;
process.env.MEM0_DIR = join(home, '.mem0');
process.env.MEM0_TELEMETRY = 'false';

// Anything the engine would print goes to stderr: stdout carries only the URL line.
console.log = console.error;
console.info = console.error;
console.debug = () => undefined;

// Offline guard: the engine must never reach beyond loopback. A request that tries fails loudly.
const loopbackFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  if (url.hostname !== '127.0.0.1') {
    process.stderr.write(`mem0-engine: refused a request to a non-loopback host (${url.hostname}).\n`);
    return Promise.reject(new TypeError('mem0-engine is offline.'));
  }
  return loopbackFetch(input, init);
};

// ---------------------------------------------------------------------------------------------
// Deterministic embedder: a bag of hashed word tokens, L2-normalized. Texts that share words
// have a positive cosine similarity; texts that share none score about 0.

function embedText(text) {
  const vector = new Array(EMBEDDING_DIMENSION).fill(0);
  const tokens =
    String(text)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const token of tokens) {
    const digest = createHash('sha256').update(token).digest();
    vector[digest.readUInt32BE(0) % EMBEDDING_DIMENSION] += 1;
  }
  if (tokens.length === 0) vector[0] = 1;
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return vector.map((value) => value / norm);
}

const hashEmbedder = {
  async embedQuery(text) {
    return embedText(text);
  },
  async embedDocuments(texts) {
    return texts.map(embedText);
  },
};

// ---------------------------------------------------------------------------------------------
// HTTP helpers.

function send(res, status, value, headers = {}) {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': randomBytes(4).toString('hex'),
    ...headers,
  });
  res.end(body);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(Object.assign(new Error('too large'), { tooLarge: true }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** FastAPI's answer to a request whose body fails validation: 422 in the list form (§2.3). */
function invalid(res, issues) {
  send(res, 422, { detail: issues });
}

// ---------------------------------------------------------------------------------------------
// Request models (§2.2) and Pydantic-like validation (unknown fields ignored, as served).

const OPTIONAL = { required: false };
const MODELS = {
  MemoryCreate: {
    messages: { type: 'messages', required: true },
    user_id: { type: 'string', ...OPTIONAL },
    agent_id: { type: 'string', ...OPTIONAL },
    run_id: { type: 'string', ...OPTIONAL },
    metadata: { type: 'object', ...OPTIONAL },
    expiration_date: { type: 'string', ...OPTIONAL },
    infer: { type: 'boolean', ...OPTIONAL },
    memory_type: { type: 'string', ...OPTIONAL },
    prompt: { type: 'string', ...OPTIONAL },
  },
  SearchRequest: {
    query: { type: 'string', required: true },
    user_id: { type: 'string', ...OPTIONAL },
    run_id: { type: 'string', ...OPTIONAL },
    agent_id: { type: 'string', ...OPTIONAL },
    filters: { type: 'object', ...OPTIONAL },
    top_k: { type: 'integer', ...OPTIONAL },
    threshold: { type: 'number', ...OPTIONAL },
    explain: { type: 'boolean', ...OPTIONAL },
    show_expired: { type: 'boolean', ...OPTIONAL },
  },
};

const TYPE_ERRORS = {
  string: ['string_type', 'Input should be a valid string'],
  integer: ['int_type', 'Input should be a valid integer'],
  number: ['float_type', 'Input should be a valid number'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  object: ['dict_type', 'Input should be a valid dictionary'],
  messages: ['list_type', 'Input should be a valid list'],
};

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldIssues(name, spec, value) {
  const loc = ['body', name];
  const typeIssue = () => {
    const [type, msg] = TYPE_ERRORS[spec.type];
    return [{ type, loc, msg, input: value }];
  };
  switch (spec.type) {
    case 'string':
      return typeof value === 'string' ? [] : typeIssue();
    case 'integer':
      return Number.isInteger(value) ? [] : typeIssue();
    case 'number':
      return typeof value === 'number' ? [] : typeIssue();
    case 'boolean':
      return typeof value === 'boolean' ? [] : typeIssue();
    case 'object':
      return isPlainObject(value) ? [] : typeIssue();
    case 'messages': {
      if (!Array.isArray(value)) return typeIssue();
      const issues = [];
      value.forEach((message, index) => {
        if (!isPlainObject(message)) {
          issues.push({ type: 'model_attributes_type', loc: [...loc, index], msg: 'Input should be a valid dictionary or object to extract fields from', input: message });
          return;
        }
        for (const key of ['role', 'content']) {
          if (!Object.hasOwn(message, key)) issues.push({ type: 'missing', loc: [...loc, index, key], msg: 'Field required', input: message });
          else if (typeof message[key] !== 'string') issues.push({ type: 'string_type', loc: [...loc, index, key], msg: 'Input should be a valid string', input: message[key] });
        }
      });
      return issues;
    }
  }
  return [];
}

/**
 * Parses and validates a JSON body against a model, as FastAPI does.
 *
 * @returns The body object, or undefined after the 422 answer was sent.
 */
function validateBody(req, res, bytes, modelName) {
  const contentType = req.headers['content-type'];
  if (bytes.length === 0) {
    invalid(res, [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
    return undefined;
  }
  const text = bytes.toString('utf8');
  if (contentType !== undefined && !/^application\/(.+\+)?json\b/i.test(contentType)) {
    invalid(res, [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: text }]);
    return undefined;
  }
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    invalid(res, [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }]);
    return undefined;
  }
  if (!isPlainObject(body)) {
    invalid(res, [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body }]);
    return undefined;
  }
  const issues = [];
  for (const [name, spec] of Object.entries(MODELS[modelName])) {
    const present = Object.hasOwn(body, name) && body[name] !== undefined;
    if (!present || body[name] === null) {
      if (spec.required) issues.push({ type: 'missing', loc: ['body', name], msg: 'Field required', input: body });
      continue;
    }
    issues.push(...fieldIssues(name, spec, body[name]));
  }
  if (issues.length > 0) {
    invalid(res, issues);
    return undefined;
  }
  return body;
}

// ---------------------------------------------------------------------------------------------
// Authentication of the current stock server (§2.4): X-API-Key or a Bearer JWT (no JWTs here).

function authenticate(req, res) {
  const authorization = req.headers.authorization;
  const bearer = typeof authorization === 'string' && /^bearer /i.test(authorization);
  const key = req.headers['x-api-key'];
  if (!bearer && key === undefined) {
    send(res, 401, { detail: AUTH.required }, { 'www-authenticate': 'Bearer' });
    return false;
  }
  if (bearer) {
    send(res, 401, { detail: AUTH.invalidToken });
    return false;
  }
  if (key !== apiKey) {
    send(res, 401, { detail: AUTH.invalidKey });
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Engine errors: the library's validation errors are 400, anything else 502 (§2.3, §2.5).

function isValidationError(error) {
  const message = error instanceof Error ? error.message : '';
  return /required|must|cannot|invalid|not supported/i.test(message);
}

function engineFailure(res, error) {
  process.stderr.write(`mem0-engine: ${error instanceof Error ? error.stack : String(error)}\n`);
  if (isValidationError(error)) {
    const message = error.message;
    send(res, /not found/i.test(message) ? 404 : 400, { detail: message });
    return;
  }
  send(res, 502, { detail: 'The memory service failed.', code: 'unknown', request_id: randomBytes(4).toString('hex') });
}

// ---------------------------------------------------------------------------------------------
// Routes.

let memory;

/** `POST /memories`: the stock add handler over `Memory.add` (§2.3). */
async function addMemories(body, res) {
  if (!ENTITY_IDS.some((id) => typeof body[id] === 'string' && body[id] !== '')) {
    send(res, 400, { detail: ADD_NEEDS_ID });
    return;
  }
  const options = { infer: body.infer ?? true };
  if (body.user_id) options.userId = body.user_id;
  if (body.agent_id) options.agentId = body.agent_id;
  if (body.run_id) options.runId = body.run_id;
  if (isPlainObject(body.metadata)) options.metadata = body.metadata;
  if (typeof body.expiration_date === 'string') options.expirationDate = body.expiration_date;
  const messages = body.messages.map(({ role, content }) => ({ role, content }));
  const answer = await memory.add(messages, options);
  // The JS library puts the event inside `metadata`; the Python server answers it at the top level.
  const results = (answer.results ?? []).map((result) => {
    const { metadata, ...rest } = result;
    return { ...rest, event: result.event ?? metadata?.event ?? 'ADD' };
  });
  send(res, 200, { results });
}

/** `POST /search`: root ids copied over `filters` keys, then `Memory.search` (§2.3). */
async function searchMemories(body, res) {
  const filters = isPlainObject(body.filters) ? { ...body.filters } : {};
  for (const id of ENTITY_IDS) if (typeof body[id] === 'string' && body[id] !== '') filters[id] = body[id];
  if (!ENTITY_IDS.some((id) => typeof filters[id] === 'string' && filters[id] !== '')) {
    send(res, 400, { detail: SEARCH_NEEDS_SCOPE });
    return;
  }
  const options = { filters };
  if (body.top_k != null) options.topK = body.top_k;
  if (body.threshold != null) options.threshold = body.threshold;
  if (body.explain != null) options.explain = body.explain;
  if (body.show_expired != null) options.showExpired = body.show_expired;
  const answer = await memory.search(body.query, options);
  // camelCase timestamps become the Python server's snake_case; an empty metadata is null.
  const results = (answer.results ?? []).map((item) => {
    const { createdAt, updatedAt, metadata, ...rest } = item;
    const shaped = { ...rest, metadata: isPlainObject(metadata) && Object.keys(metadata).length > 0 ? metadata : null };
    shaped.created_at = createdAt ?? null;
    shaped.updated_at = updatedAt ?? null;
    return shaped;
  });
  send(res, 200, { results });
}

const ROUTES = {
  '/memories': { method: 'POST', model: 'MemoryCreate', handle: addMemories },
  '/search': { method: 'POST', model: 'SearchRequest', handle: searchMemories },
};

function openApiDocument() {
  const property = (name, spec) => {
    const title = name
      .split('_')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' ');
    const base =
      spec.type === 'messages' ? { items: { $ref: '#/components/schemas/Message' }, type: 'array' } : spec.type === 'object' ? { additionalProperties: true, type: 'object' } : { type: spec.type };
    return spec.required ? { ...base, title } : { anyOf: [base, { type: 'null' }], title };
  };
  const schema = (name, fields) => ({
    properties: Object.fromEntries(Object.entries(fields).map(([field, spec]) => [field, property(field, spec)])),
    type: 'object',
    required: Object.entries(fields)
      .filter(([, spec]) => spec.required)
      .map(([field]) => field),
    title: name,
  });
  const operation = (summary, model) => ({
    summary,
    requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${model}` } } }, required: true },
    responses: { 200: { description: 'Successful Response' }, 422: { description: 'Validation Error' } },
    security: [{ HTTPBearer: [] }, { APIKeyHeader: [] }],
  });
  return {
    openapi: '3.1.0',
    info: { title: 'Mem0 REST APIs', description: 'A REST API for managing and searching memories.', version: '1.0.0' },
    paths: { '/memories': { post: operation('Create memories', 'MemoryCreate') }, '/search': { post: operation('Search memories', 'SearchRequest') } },
    components: {
      schemas: {
        Message: schema('Message', { role: { type: 'string', required: true }, content: { type: 'string', required: true } }),
        MemoryCreate: schema('MemoryCreate', MODELS.MemoryCreate),
        SearchRequest: schema('SearchRequest', MODELS.SearchRequest),
      },
      securitySchemes: { HTTPBearer: { type: 'http', scheme: 'bearer' }, APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    },
  };
}

async function handle(req, res) {
  const path = (req.url ?? '').split('?')[0];
  if (path === '/openapi.json' && req.method === 'GET') {
    send(res, 200, openApiDocument());
    return;
  }
  const route = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
  // Current builds answer a trailing-slash variant with 404, not a redirect (§2.5).
  if (route === undefined) {
    send(res, 404, { detail: 'Not Found' });
    return;
  }
  if (req.method !== route.method) {
    send(res, 405, { detail: 'Method Not Allowed' }, { allow: route.method });
    return;
  }
  if (!authenticate(req, res)) return;
  let bytes;
  try {
    bytes = await readBody(req);
  } catch (error) {
    if (error.tooLarge) send(res, 413, { detail: 'Request body is too large.' });
    return;
  }
  const body = validateBody(req, res, bytes, route.model);
  if (body === undefined) return;
  try {
    await route.handle(body, res);
  } catch (error) {
    engineFailure(res, error);
  }
}

// ---------------------------------------------------------------------------------------------
// The stub chat model on loopback: every completion returns the fixed facts (§4).

function startStubModel() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
        send(res, 404, { error: { message: 'Not found.' } });
        return;
      }
      send(res, 200, {
        id: `chatcmpl-${randomUUID()}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: 'stub',
        choices: [{ index: 0, message: { role: 'assistant', content: STUB_FACTS }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    });
  });
  return listen(server);
}

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

// ---------------------------------------------------------------------------------------------
// Startup and shutdown.

const model = await startStubModel();
const { Memory } = await import('mem0ai/oss');
memory = new Memory({
  version: 'v1.1',
  embedder: { provider: 'langchain', config: { model: hashEmbedder } },
  vectorStore: { provider: 'memory', config: { collectionName: 'memories', dimension: EMBEDDING_DIMENSION, dbPath: join(home, 'vector_store.db') } },
  llm: { provider: 'openai', config: { apiKey: 'dummy', model: 'stub', baseURL: `http://127.0.0.1:${model.address().port}/v1` } },
  disableHistory: true,
});
// One search before the URL is printed: loads the native addon and creates the store, so a
// broken installation fails here rather than on the first test request.
await memory.search('warm up', { filters: { user_id: '__mem0_engine_warm_up__' } });

const server = await listen(createServer((req, res) => void handle(req, res).catch((error) => engineFailure(res, error))));
process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  server.closeAllConnections?.();
  server.close();
  model.close();
  rmSync(home, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
