// A loopback fake of the Anthropic Messages API for the Claude Code tier (agents.md §4): a user
// text block ending in `CALL <tool> <JSON object>` is answered with that tool_use, a turn whose
// last user message carries a tool_result with `FINAL: tool said <content>`, anything else with
// `FAKE REPLY`; streaming requests get Anthropic's server-sent events. Every request is recorded.
import { startFakeServer, type FakeServer } from './fake-server.ts';
import { type FakeReply, jsonReply } from './reply.ts';

/** A running fake; `baseUrl` is what ANTHROPIC_BASE_URL takes (no `/v1`). */
export interface AnthropicModelFake extends FakeServer {
  readonly baseUrl: string;
  /** Parsed bodies of the `/v1/messages` requests, in arrival order. */
  messageRequests(): MessagesRequest[];
}

/** One content block as Claude Code sends it. */
export interface ContentBlock {
  readonly type: string;
  readonly text?: string;
  readonly tool_use_id?: string;
  readonly content?: string | { type: string; text?: string }[];
  readonly [key: string]: unknown;
}

/** The parts of a Messages request body the fake reads. */
export interface MessagesRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly messages: { role: string; content: string | ContentBlock[] }[];
  readonly tools?: { name: string; description?: string }[];
  readonly [key: string]: unknown;
}

type Answer = { readonly kind: 'tool'; readonly name: string; readonly input: Record<string, unknown> } | { readonly kind: 'text'; readonly text: string };

const CALL = /CALL (\S+) (\{.*\})\s*$/s;
const FINAL_CONTENT_CHARS = 600;

/** The blocks of a message (a string content is one text block). */
export function blocksOf(content: string | ContentBlock[]): ContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** The text of a tool_result block: string content, or its text parts joined. */
export function toolResultText(block: ContentBlock): string {
  if (typeof block.content === 'string') return block.content;
  return (block.content ?? []).map((part) => part.text ?? '').join('');
}

/**
 * Decides the answer for one request body: a tool_result after the last assistant message gives
 * `FINAL: tool said …`; otherwise the last user message's text blocks are searched for a block
 * ending in `CALL <tool> <JSON object>` (Claude Code adds system-reminder blocks around the
 * prompt and may send a trailing `system` message).
 */
export function decideAnthropicAnswer(body: MessagesRequest): Answer {
  const messages = body.messages;
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  const after = messages.slice(lastAssistant + 1).filter((message) => message.role === 'user');
  const result = after.flatMap((message) => blocksOf(message.content)).find((block) => block.type === 'tool_result');
  if (result !== undefined) return { kind: 'text', text: `FINAL: tool said ${JSON.stringify(toolResultText(result)).slice(0, FINAL_CONTENT_CHARS)}` };
  const last = messages.findLast((message) => message.role === 'user');
  if (last === undefined) return { kind: 'text', text: 'FAKE REPLY' };
  const blocks = blocksOf(last.content);
  if (!Array.isArray(body.tools) || body.tools.length === 0) return { kind: 'text', text: 'FAKE REPLY' };
  for (const block of blocks) {
    const match = block.type === 'text' && typeof block.text === 'string' ? CALL.exec(block.text) : null;
    if (match === null) continue;
    try {
      const input = JSON.parse(match[2] as string) as unknown;
      if (typeof input === 'object' && input !== null && !Array.isArray(input)) return { kind: 'tool', name: match[1] as string, input: input as Record<string, unknown> };
    } catch {
      // Not a JSON object: plain text below.
    }
  }
  return { kind: 'text', text: 'FAKE REPLY' };
}

const USAGE = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function contentBlock(answer: Answer): Record<string, unknown> {
  return answer.kind === 'text' ? { type: 'text', text: answer.text } : { type: 'tool_use', id: 'toolu_01', name: answer.name, input: answer.input };
}

function streamReply(answer: Answer, model: string): FakeReply {
  const stopReason = answer.kind === 'tool' ? 'tool_use' : 'end_turn';
  const start = answer.kind === 'text' ? { type: 'text', text: '' } : { type: 'tool_use', id: 'toolu_01', name: answer.name, input: {} };
  const delta = answer.kind === 'text' ? { type: 'text_delta', text: answer.text } : { type: 'input_json_delta', partial_json: JSON.stringify(answer.input) };
  const events: [string, unknown][] = [
    ['message_start', { type: 'message_start', message: { id: 'msg_fake', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: USAGE } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } }],
    ['message_stop', { type: 'message_stop' }],
  ];
  const body = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  return { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, body };
}

function answer(method: string, path: string, json: unknown): FakeReply {
  if (method === 'POST' && path.endsWith('/v1/messages/count_tokens')) return jsonReply(200, { input_tokens: 10 });
  if (method !== 'POST' || !path.endsWith('/v1/messages')) return jsonReply(404, { type: 'error', error: { type: 'not_found_error', message: 'Not found' } });
  const body = json as MessagesRequest | undefined;
  if (body === undefined || !Array.isArray(body.messages)) return jsonReply(400, { type: 'error', error: { type: 'invalid_request_error', message: 'Invalid request' } });
  const decided = decideAnthropicAnswer(body);
  const model = typeof body.model === 'string' ? body.model : 'fake';
  if (body.stream === true) return streamReply(decided, model);
  return jsonReply(200, {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model,
    content: [contentBlock(decided)],
    stop_reason: decided.kind === 'tool' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: USAGE,
  });
}

/**
 * Starts the fake Messages API on 127.0.0.1 with a free port.
 *
 * @returns The running fake; call `close()` when done.
 */
export async function startAnthropicModelFake(): Promise<AnthropicModelFake> {
  const server = await startFakeServer({ handler: (request) => answer(request.method, request.path, request.json) });
  return {
    ...server,
    baseUrl: server.origin,
    messageRequests: () => server.requests.filter((request) => request.path.endsWith('/v1/messages') && request.json !== undefined).map((request) => request.json as MessagesRequest),
  };
}
