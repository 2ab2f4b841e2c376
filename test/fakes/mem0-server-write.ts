// The add route of the Mem0 server fake: which memories a write stores and what it answers, per
// `write` mode (mem0-services.md §2.3 stock echo, §3 PolarDB encoded echo, §5 option table).
import { createHash, randomUUID } from 'node:crypto';
import type { ServerMemory } from './mem0-server.ts';
import { jsonReply, type FakeReply } from './reply.ts';
import { isNonEmptyString, isPlainObject } from './strict-json.ts';

/**
 * What an `infer: false` write stores and answers:
 *
 * - `echo`: one memory per non-system message, verbatim; `{"results":[{"id","memory","event":"ADD","actor_id":null,"role"}]}`.
 * - `encoded-echo`: the whole message list as one memory, `JSON.stringify([{role, content}…])`,
 *   stored with `"infer": false`; the answer echoes that encoded `memory`.
 * - `id-only`: stored as `echo`; the answer is `{"results":[{"id"}]}`.
 * - `rewrite`: stores and answers a rewritten memory (`User said: <text>`).
 * - `delete-event`: stores nothing; the answer has `"event":"DELETE"` with the exact text.
 *
 * `infer: true` (the default, and always with `legacy2025`, which drops the field) runs the
 * fake's "extraction": one rewritten memory per non-system message, ADD only, an exact
 * duplicate in the same scope skipped (so a repeat answers `results: []`).
 */
export type WriteMode = 'echo' | 'encoded-echo' | 'id-only' | 'rewrite' | 'delete-event';

/** What the add handler needs besides the validated body. */
export interface WriteContext {
  readonly routes: 'stock' | 'polardb';
  readonly write: WriteMode;
  readonly legacy: boolean;
  /** Stored memories; new ones are appended. */
  readonly memories: ServerMemory[];
}

/** The stock add-without-identifier text (§2.3), also used on the PolarDB table. */
export const ADD_IDENTIFIER_REQUIRED = 'At least one identifier (user_id, agent_id, run_id) is required.';

const ROOT_IDS = ['user_id', 'agent_id', 'run_id'] as const;
const WRITE_TIMESTAMP = '2026-01-15T10:30:00+00:00';

/**
 * Answers a validated add body and stores what the mode stores.
 *
 * @returns 400 `{"detail": ADD_IDENTIFIER_REQUIRED}` without a truthy root id; a PolarDB
 *   `async_mode: true` write answers `{"job_id"}` and stores nothing; otherwise 200.
 */
export function answerAdd(body: Record<string, unknown>, ctx: WriteContext): FakeReply {
  const scope = Object.fromEntries(ROOT_IDS.filter((key) => isNonEmptyString(body[key])).map((key) => [key, body[key] as string]));
  if (Object.keys(scope).length === 0) return jsonReply(400, { detail: ADD_IDENTIFIER_REQUIRED });
  if (ctx.routes === 'polardb' && body['async_mode'] === true) return jsonReply(200, { job_id: randomUUID() });
  const messages = (body['messages'] as readonly { role: string; content: string }[]).map(({ role, content }) => ({ role, content }));
  const texts = messages.filter((m) => m.role !== 'system');
  const metadata = isPlainObject(body['metadata']) ? body['metadata'] : null;
  const store = (memory: string, extra: Record<string, unknown> = {}): ServerMemory => {
    const record: ServerMemory = { id: randomUUID(), memory, hash: md5(memory), metadata, created_at: WRITE_TIMESTAMP, updated_at: null, ...scope, ...extra };
    ctx.memories.push(record);
    return record;
  };
  const infer = ctx.legacy ? true : body['infer'] !== false;
  if (infer) {
    const results = texts
      .map((m) => ({ role: m.role, memory: rewrite(m.content) }))
      .filter(({ memory }) => !ctx.memories.some((r) => r.memory === memory && ROOT_IDS.every((k) => r[k] === scope[k])))
      .map(({ role, memory }) => ({ id: store(memory).id, memory, event: 'ADD', actor_id: null, role }));
    return jsonReply(200, { results });
  }
  switch (ctx.write) {
    case 'echo':
      return jsonReply(200, { results: texts.map((m) => ({ id: store(m.content).id, memory: m.content, event: 'ADD', actor_id: null, role: m.role })) });
    case 'encoded-echo': {
      const encoded = JSON.stringify(messages);
      return jsonReply(200, { results: [{ id: store(encoded, { infer: false }).id, memory: encoded, event: 'ADD' }] });
    }
    case 'id-only':
      return jsonReply(200, { results: texts.map((m) => ({ id: store(m.content).id })) });
    case 'rewrite':
      return jsonReply(200, {
        results: texts.map((m) => ({ id: store(rewrite(m.content)).id, memory: rewrite(m.content), event: 'ADD', actor_id: null, role: m.role })),
      });
    case 'delete-event':
      return jsonReply(200, { results: texts.map((m) => ({ id: randomUUID(), memory: m.content, event: 'DELETE' })) });
  }
}

function rewrite(text: string): string {
  return `User said: ${text}`;
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}
