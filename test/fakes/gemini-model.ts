// A loopback fake of the Gemini API (generateContent / streamGenerateContent) for the Gemini CLI
// tier (agents.md §4): a user text part ending in `CALL <tool> <JSON object>` is answered with
// that functionCall, a turn whose last user content carries a functionResponse with
// `FINAL: tool said <response>`, anything else with `FAKE REPLY`; `?alt=sse` requests get
// server-sent events. Every request is recorded.
import { startFakeServer, type FakeServer } from './fake-server.ts';
import { type FakeReply, jsonReply } from './reply.ts';

/** A running fake; `baseUrl` is what GOOGLE_GEMINI_BASE_URL takes. */
export interface GeminiModelFake extends FakeServer {
  readonly baseUrl: string;
  /** Parsed bodies of the `:generateContent` and `:streamGenerateContent` requests, in order. */
  contentRequests(): GenerateRequest[];
}

/** One part as Gemini CLI sends it. */
export interface GeminiPart {
  readonly text?: string;
  readonly functionCall?: { name: string; args?: unknown };
  readonly functionResponse?: { name: string; response?: unknown };
  readonly [key: string]: unknown;
}

/** The parts of a request body the fake reads. */
export interface GenerateRequest {
  readonly contents: { role?: string; parts?: GeminiPart[] }[];
  readonly tools?: { functionDeclarations?: { name: string; description?: string }[] }[];
  readonly [key: string]: unknown;
}

type Answer = { readonly kind: 'tool'; readonly name: string; readonly args: Record<string, unknown> } | { readonly kind: 'text'; readonly text: string };

const CALL = /CALL (\S+) (\{.*\})\s*$/s;
const FINAL_CONTENT_CHARS = 600;

/** The names of the function declarations in a request. */
export function declaredFunctions(body: GenerateRequest): string[] {
  return (body.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((declaration) => declaration.name));
}

/** Decides the answer for one request body. */
export function decideGeminiAnswer(body: GenerateRequest): Answer {
  const last = body.contents.at(-1);
  const parts = last?.parts ?? [];
  const response = parts.find((part) => part.functionResponse !== undefined)?.functionResponse;
  if (response !== undefined) return { kind: 'text', text: `FINAL: tool said ${JSON.stringify(response.response ?? null).slice(0, FINAL_CONTENT_CHARS)}` };
  if (last?.role !== 'user' || declaredFunctions(body).length === 0) return { kind: 'text', text: 'FAKE REPLY' };
  for (const part of parts) {
    const match = typeof part.text === 'string' ? CALL.exec(part.text) : null;
    if (match === null) continue;
    try {
      const args = JSON.parse(match[2] as string) as unknown;
      if (typeof args === 'object' && args !== null && !Array.isArray(args)) return { kind: 'tool', name: match[1] as string, args: args as Record<string, unknown> };
    } catch {
      // Not a JSON object: plain text below.
    }
  }
  return { kind: 'text', text: 'FAKE REPLY' };
}

const USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

function response(answer: Answer): Record<string, unknown> {
  const part = answer.kind === 'text' ? { text: answer.text } : { functionCall: { name: answer.name, args: answer.args } };
  return { candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE, modelVersion: 'fake' };
}

function answer(method: string, url: string, path: string, json: unknown): FakeReply {
  if (method === 'POST' && path.endsWith(':countTokens')) return jsonReply(200, { totalTokens: 10 });
  const stream = path.endsWith(':streamGenerateContent');
  if (method !== 'POST' || (!stream && !path.endsWith(':generateContent'))) return jsonReply(404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
  const body = json as GenerateRequest | undefined;
  if (body === undefined || !Array.isArray(body.contents)) return jsonReply(400, { error: { code: 400, message: 'Invalid request', status: 'INVALID_ARGUMENT' } });
  const decided = response(decideGeminiAnswer(body));
  if (stream && url.includes('alt=sse')) {
    return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: `data: ${JSON.stringify(decided)}\r\n\r\n` };
  }
  return jsonReply(200, stream ? [decided] : decided);
}

/**
 * Starts the fake Gemini API on 127.0.0.1 with a free port.
 *
 * @returns The running fake; call `close()` when done.
 */
export async function startGeminiModelFake(): Promise<GeminiModelFake> {
  const server = await startFakeServer({ handler: (request) => answer(request.method, request.url, request.path, request.json) });
  return {
    ...server,
    baseUrl: server.origin,
    contentRequests: () => server.requests.filter((request) => /:(stream)?[gG]enerateContent$/.test(request.path) && request.json !== undefined).map((request) => request.json as GenerateRequest),
  };
}
