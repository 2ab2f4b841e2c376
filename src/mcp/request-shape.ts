// The answer to a stdin message with a usable `id` but a shape the SDK would drop unanswered
// (docs/design/profile-v1.md §6.1): the SDK's stdio transport reports a line that fails its
// JSON-RPC schema to `onerror` only, so the client would wait for an answer forever.
import { isPlainObject } from '../util/plain-object.ts';

/**
 * The JSON-RPC error line for a request whose `id` can be answered but whose shape is invalid.
 *
 * A plain object with an `id` that is a string or a finite number, no `result` or `error`
 * (a response is not a request), and `jsonrpc` other than `"2.0"` or `method` not a string is
 * `-32600 Invalid Request`; with those right, `params` present but not an object is
 * `-32602 Invalid params` (MCP takes named parameters only). Anything else, including a line
 * that is not JSON, is left to the SDK.
 *
 * @param line One stdin line (UTF-8, the newline may be included).
 * @returns One line with the newline, echoing the request's `id`, or undefined.
 * @see docs/design/profile-v1.md §6.1
 */
export function invalidShapeAnswer(line: Uint8Array): string | undefined {
  let message: unknown;
  try {
    message = JSON.parse(new TextDecoder().decode(line));
  } catch {
    return undefined;
  }
  if (!isPlainObject(message)) return undefined;
  const id = message['id'];
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) return undefined;
  if (Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error')) return undefined;
  if (message['jsonrpc'] !== '2.0' || typeof message['method'] !== 'string') {
    return errorLine(id, -32600, 'Invalid Request: a request needs "jsonrpc": "2.0" and a string "method".');
  }
  if (Object.hasOwn(message, 'params') && !isPlainObject(message['params'])) {
    return errorLine(id, -32602, 'Invalid params: "params" must be an object.');
  }
  return undefined;
}

function errorLine(id: string | number, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;
}
