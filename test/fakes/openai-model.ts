// A loopback fake of an OpenAI-compatible chat-completions model for real-client tests
// (qwen-client.md §11 C): it answers a prompt ending in `CALL <tool> <JSON object>` with that
// tool call, a turn that follows a tool result with `FINAL: tool said <content>`, and anything
// else with `FAKE REPLY`; streaming requests get server-sent events. Every request is recorded.
import { appendFileSync } from 'node:fs';
import { startFakeServer, type FakeServer, type RecordedRequest } from './fake-server.ts';
import { type FakeReply, jsonReply } from './reply.ts';

/** Options of {@link startOpenAiModelFake}. */
export interface OpenAiModelFakeOptions {
  /** When set, one JSON line `{url, body}` is appended per request (the log the spec describes). */
  readonly logFile?: string;
}

/** A running fake model; `baseUrl` is what `--openai-base-url` / OPENAI_BASE_URL take. */
export interface OpenAiModelFake extends FakeServer {
  /** `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  /** Parsed bodies of the `/chat/completions` requests, in arrival order. */
  chatRequests(): ChatRequest[];
}

/** The parts of a chat-completions request body the fake reads. */
export interface ChatRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly messages: ChatMessage[];
  readonly tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  readonly [key: string]: unknown;
}

/** One chat message as Qwen Code sends it. */
export interface ChatMessage {
  readonly role: string;
  readonly content?: string | null | { type: string; text?: string }[];
  readonly tool_calls?: unknown[];
  readonly tool_call_id?: string;
}

/** What the fake model answers. */
type Answer = { readonly kind: 'tool'; readonly name: string; readonly args: string } | { readonly kind: 'text'; readonly text: string };

const CALL = /CALL (\S+) (\{.*\})\s*$/s;
// Qwen Code appends UserPromptSubmit Hook context after the prompt, as its own part.
const HOOK_CONTEXT = /<qwen:user-prompt-submit-context>[\s\S]*?<\/qwen:user-prompt-submit-context>/g;
const FINAL_CONTENT_CHARS = 600;

/** The text of a message: string content, or its `text` parts joined. */
export function messageText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

/**
 * Decides the answer for one request body (qwen-client.md §11 C, in words there).
 *
 * @returns A tool call when the last user message, without Hook context parts (which Qwen
 *   Code appends after the prompt), ends with `CALL <tool> <JSON object>`, tools
 *   are declared and no tool result follows the last assistant message; `FINAL: tool said …`
 *   when a tool result follows it; `FAKE REPLY` otherwise.
 */
export function decideAnswer(body: ChatRequest): Answer {
  const messages = body.messages;
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  const toolAfterAssistant = lastAssistant >= 0 ? messages.slice(lastAssistant + 1).find((message) => message.role === 'tool') : undefined;
  if (toolAfterAssistant !== undefined) {
    return { kind: 'text', text: `FINAL: tool said ${JSON.stringify(toolAfterAssistant.content ?? null).slice(0, FINAL_CONTENT_CHARS)}` };
  }
  const lastUser = messages.findLast((message) => message.role === 'user');
  const match = CALL.exec(messageText(lastUser).replace(HOOK_CONTEXT, ''));
  if (match !== null && Array.isArray(body.tools) && body.tools.length > 0) {
    try {
      const args = JSON.parse(match[2] as string) as unknown;
      if (typeof args === 'object' && args !== null && !Array.isArray(args)) return { kind: 'tool', name: match[1] as string, args: JSON.stringify(args) };
    } catch {
      // Not a JSON object: answered as plain text below.
    }
  }
  return { kind: 'text', text: 'FAKE REPLY' };
}

function assistantMessage(answer: Answer): Record<string, unknown> {
  if (answer.kind === 'text') return { role: 'assistant', content: answer.text };
  return {
    role: 'assistant',
    content: null,
    tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: answer.name, arguments: answer.args } }],
  };
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function streamReply(answer: Answer, model: string): FakeReply {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model };
  const finishReason = answer.kind === 'tool' ? 'tool_calls' : 'stop';
  const chunks = [
    { ...base, choices: [{ index: 0, delta: assistantMessage(answer), finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] },
    { ...base, choices: [], usage: USAGE },
  ];
  const body = `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
  return { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, body };
}

function completionReply(answer: Answer, model: string): FakeReply {
  return jsonReply(200, {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: assistantMessage(answer), finish_reason: answer.kind === 'tool' ? 'tool_calls' : 'stop' }],
    usage: USAGE,
  });
}

function answer(request: RecordedRequest, logFile: string | undefined): FakeReply {
  if (logFile !== undefined) appendFileSync(logFile, `${JSON.stringify({ url: request.url, body: request.json ?? null })}\n`);
  if (request.method !== 'POST' || !request.path.endsWith('/chat/completions')) return jsonReply(404, { error: { message: 'Not found' } });
  const body = request.json as ChatRequest | undefined;
  if (body === undefined || !Array.isArray(body.messages)) return jsonReply(400, { error: { message: 'Invalid request' } });
  const decided = decideAnswer(body);
  const model = typeof body.model === 'string' ? body.model : 'fake';
  return body.stream === true ? streamReply(decided, model) : completionReply(decided, model);
}

/**
 * Starts the fake model on 127.0.0.1 with a free port.
 *
 * @returns The running fake; call `close()` when done.
 * @see qwen-client.md §11 C
 */
export async function startOpenAiModelFake(options: OpenAiModelFakeOptions = {}): Promise<OpenAiModelFake> {
  const server = await startFakeServer({ handler: (request) => answer(request, options.logFile) });
  return {
    ...server,
    baseUrl: `${server.origin}/v1`,
    chatRequests: () => server.requests.filter((request) => request.path.endsWith('/chat/completions') && request.json !== undefined).map((request) => request.json as ChatRequest),
  };
}
