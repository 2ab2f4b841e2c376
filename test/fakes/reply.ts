// One complete HTTP answer of a fake and the code that writes it with an exact content-length.
import type { ServerResponse } from 'node:http';
import type { ResponseRecord } from './fake-server.ts';

/** A complete answer. `json` is serialized when given; otherwise `body` is sent as is. */
export interface FakeReply {
  readonly status: number;
  /** Extra or replacing headers (names are case-insensitive; these win over the defaults). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Raw body; a string is sent as UTF-8. */
  readonly body?: string | Uint8Array;
  /** A value sent as `JSON.stringify(json)` with `content-type: application/json`. */
  readonly json?: unknown;
}

/**
 * Builds a JSON reply.
 *
 * @param status HTTP status.
 * @param value Serialized with `JSON.stringify`.
 * @param headers Extra headers.
 */
export function jsonReply(status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): FakeReply {
  return { status, json: value, headers };
}

/** The bytes of a reply's body (empty when it has none). */
export function replyBytes(reply: FakeReply): Uint8Array {
  if (reply.json !== undefined) return new TextEncoder().encode(JSON.stringify(reply.json));
  if (reply.body === undefined) return new Uint8Array(0);
  return typeof reply.body === 'string' ? new TextEncoder().encode(reply.body) : reply.body;
}

/**
 * Merges default and given headers; names compare case-insensitively and given ones win.
 *
 * @returns Lower-case header names and values.
 */
export function mergeHeaders(...sets: readonly (Readonly<Record<string, string>> | undefined)[]): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const set of sets) {
    for (const [name, value] of Object.entries(set ?? {})) merged[name.toLowerCase()] = value;
  }
  return merged;
}

/**
 * Writes a complete reply. A 204 or 304 gets no body and no content-type; every other reply
 * gets `content-length` (unless the headers set it or `transfer-encoding`, which lets a test
 * declare a length the body does not have).
 */
export function writeReply(res: ServerResponse, record: ResponseRecord, reply: FakeReply): void {
  if (res.destroyed) return;
  const bytes = replyBytes(reply);
  const noBody = reply.status === 204 || reply.status === 304;
  const defaults: Record<string, string> = {};
  if (!noBody) {
    defaults['content-type'] = 'application/json';
    const given = mergeHeaders(reply.headers);
    if (given['transfer-encoding'] === undefined) defaults['content-length'] = String(bytes.byteLength);
  }
  record.status = reply.status;
  res.writeHead(reply.status, mergeHeaders(defaults, reply.headers));
  if (noBody || bytes.byteLength === 0) {
    res.end();
    return;
  }
  record.chunksWritten += 1;
  record.bytesWritten += bytes.byteLength;
  res.end(bytes);
}
