// A loopback fake of the OpenAI Responses API for the Codex tier (agents.md §4): a user
// input_text ending in `CALL <tool> <JSON object>` is answered with that function_call, a turn
// whose last user message is followed by a function_call_output with `FINAL: tool said <output>`, anything else
// with `FAKE REPLY`, always as server-sent events. A request of Codex's automatic approval
// reviewer (`text.format` the `codex_output_schema` with an `outcome`) is approved, as a reviewer
// model may: the tests show that only a person can approve a write. Every request is recorded.
import { startFakeServer, type FakeServer } from './fake-server.ts';
import { type FakeReply, jsonReply } from './reply.ts';

/**
 * The `[model_providers.fake]` table of a Codex config.toml naming the fake at `baseUrl`, its key in
 * $FAKE_MODEL_KEY, as lines ending with an empty one (the table must follow every top-level key).
 */
export function codexProviderTable(baseUrl: string): string[] {
  return ['[model_providers.fake]', 'name = "fake"', `base_url = "${baseUrl}"`, 'wire_api = "responses"', 'env_key = "FAKE_MODEL_KEY"', ''];
}

/** A running fake; `baseUrl` (`…/v1`) is what a Codex `model_providers` entry takes. */
export interface ResponsesModelFake extends FakeServer {
  readonly baseUrl: string;
  /** Parsed bodies of the `/v1/responses` requests, in arrival order. */
  responseRequests(): ResponsesRequest[];
}

/** One input item as Codex sends it. */
export interface InputItem {
  readonly type?: string;
  readonly role?: string;
  readonly content?: string | { type: string; text?: string }[];
  readonly call_id?: string;
  readonly output?: unknown;
  readonly [key: string]: unknown;
}

/** The parts of a Responses request body the fake reads. */
export interface ResponsesRequest {
  readonly model?: string;
  readonly input: InputItem[];
  readonly tools?: { type: string; name?: string; description?: string; [key: string]: unknown }[];
  readonly [key: string]: unknown;
}

type Answer = { readonly kind: 'tool'; readonly name: string; readonly args: string } | { readonly kind: 'text'; readonly text: string };

const CALL = /CALL (\S+) (\{.*\})\s*$/s;
const FINAL_CONTENT_CHARS = 600;

/** The text of a function_call_output: a string, or its text parts joined. */
export function outputText(item: InputItem): string {
  if (typeof item.output === 'string') return item.output;
  if (Array.isArray(item.output)) return (item.output as { text?: string }[]).map((part) => part.text ?? '').join('');
  return JSON.stringify(item.output ?? null);
}

/** The texts of a message item's content. */
export function contentTexts(item: InputItem): string[] {
  if (typeof item.content === 'string') return [item.content];
  return (item.content ?? []).map((part) => part.text ?? '');
}

/** Whether the request is Codex's automatic approval review (its output schema has an `outcome`). */
function isReviewerRequest(body: ResponsesRequest): boolean {
  const format = (body['text'] as { format?: { name?: unknown; schema?: { properties?: Record<string, unknown> } } } | undefined)?.format;
  return format?.name === 'codex_output_schema' && format.schema?.properties?.['outcome'] !== undefined;
}

/** Decides the answer for one request body. */
export function decideResponsesAnswer(body: ResponsesRequest): Answer {
  if (isReviewerRequest(body)) return { kind: 'text', text: JSON.stringify({ outcome: 'allow', risk_level: 'low', user_authorization: 'high', rationale: 'The fake reviewer approves.' }) };
  const lastCall = body.input.findLastIndex((item) => item.type === 'function_call');
  const lastUserAt = body.input.findLastIndex((item) => item.role === 'user');
  // A function call after the last user message is this turn's: answer its output. A user
  // message after it is a new prompt of the same session (the interactive rows type a second one).
  const output = lastCall > lastUserAt ? body.input.slice(lastCall + 1).find((item) => item.type === 'function_call_output') : undefined;
  if (output !== undefined) return { kind: 'text', text: `FINAL: tool said ${JSON.stringify(outputText(output)).slice(0, FINAL_CONTENT_CHARS)}` };
  const lastUser = body.input[lastUserAt];
  if (lastUser === undefined || !Array.isArray(body.tools) || body.tools.length === 0) return { kind: 'text', text: 'FAKE REPLY' };
  for (const text of contentTexts(lastUser)) {
    const match = CALL.exec(text);
    if (match === null) continue;
    try {
      const args = JSON.parse(match[2] as string) as unknown;
      if (typeof args === 'object' && args !== null && !Array.isArray(args)) return { kind: 'tool', name: match[1] as string, args: JSON.stringify(args) };
    } catch {
      // Not a JSON object: plain text below.
    }
  }
  return { kind: 'text', text: 'FAKE REPLY' };
}

/**
 * `namespace.tool` names a tool inside a namespace tool (Codex groups each MCP server's tools
 * as `{type: "namespace", name: "mcp__<server>", tools: [...]}`); a plain name is a function.
 */
function toolName(name: string): { name: string; namespace?: string } {
  const dot = name.indexOf('.');
  return dot < 0 ? { name } : { namespace: name.slice(0, dot), name: name.slice(dot + 1) };
}

function sse(answer: Answer, model: string): FakeReply {
  const item =
    answer.kind === 'text'
      ? { type: 'message', id: 'msg_fake', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer.text, annotations: [] }] }
      : { type: 'function_call', id: 'fc_fake', call_id: 'call_1', ...toolName(answer.name), arguments: answer.args, status: 'completed' };
  const response = {
    id: 'resp_fake',
    object: 'response',
    model,
    status: 'completed',
    output: [item],
    usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  };
  const events: [string, unknown][] = [
    ['response.created', { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    ['response.completed', { type: 'response.completed', response }],
  ];
  const body = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, body };
}

function answer(method: string, path: string, json: unknown): FakeReply {
  if (method === 'GET' && path.endsWith('/models')) return jsonReply(200, { object: 'list', data: [{ id: 'gpt-fake', object: 'model' }] });
  if (method !== 'POST' || !path.endsWith('/responses')) return jsonReply(404, { error: { message: 'Not found' } });
  const body = json as ResponsesRequest | undefined;
  if (body === undefined || !Array.isArray(body.input)) return jsonReply(400, { error: { message: 'Invalid request' } });
  return sse(decideResponsesAnswer(body), typeof body.model === 'string' ? body.model : 'fake');
}

/**
 * Starts the fake Responses API on 127.0.0.1 with a free port.
 *
 * @returns The running fake; call `close()` when done.
 */
export async function startResponsesModelFake(): Promise<ResponsesModelFake> {
  const server = await startFakeServer({ handler: (request) => answer(request.method, request.path, request.json) });
  return {
    ...server,
    baseUrl: `${server.origin}/v1`,
    responseRequests: () => server.requests.filter((request) => request.path.endsWith('/responses') && request.json !== undefined).map((request) => request.json as ResponsesRequest),
  };
}
