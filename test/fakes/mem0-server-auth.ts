// Authentication of the Mem0 server fake: the current stock server's X-API-Key / Bearer rules
// and answers (mem0-services.md §2.4), or PolarDB's `Authorization: Token` (§3, unverified).
import type { RecordedRequest } from './fake-server.ts';
import { jsonReply, type FakeReply } from './reply.ts';

/**
 * `x-api-key`: only `X-API-Key: <key>`. `bearer`: only `Authorization: Bearer <key>`.
 * `token`: only `Authorization: Token <key>`. `none`: no check (stock builds before 2026-03-20).
 */
export type ServerAuthMode = 'x-api-key' | 'bearer' | 'token' | 'none';

/** 401 bodies. The stock texts are §2.4's; `tokenRejected` is the fake's own (PolarDB unverified). */
export const SERVER_AUTH_ERRORS = {
  required: { detail: 'Authentication required. Provide a Bearer token or X-API-Key header.' },
  invalidKey: { detail: 'Invalid API key.' },
  invalidToken: { detail: 'Invalid or expired token.' },
  tokenRejected: { detail: 'Invalid API key.' },
} as const;

/**
 * Checks the credential of a request.
 *
 * Stock modes (`x-api-key`, `bearer`), as the current server middleware: no `Bearer` token and
 * no `X-API-Key` (a `Token` scheme counts as none) → 401 `required` with
 * `WWW-Authenticate: Bearer`; a Bearer token other than the key → 401 `invalidToken`; else an
 * `X-API-Key` other than the key (every key in `bearer` mode) → 401 `invalidKey`.
 * `token` mode: anything but exactly `Token <key>` → 401 `tokenRejected` with
 * `WWW-Authenticate: Token`.
 *
 * @returns The 401 reply, or undefined when the request may pass.
 */
export function checkServerAuth(request: RecordedRequest, mode: ServerAuthMode, key: string): FakeReply | undefined {
  const authorization = request.headers['authorization'];
  if (mode === 'none') return undefined;
  if (mode === 'token') {
    return authorization === `Token ${key}` ? undefined : jsonReply(401, SERVER_AUTH_ERRORS.tokenRejected, { 'www-authenticate': 'Token' });
  }
  const bearer = authorization !== undefined && /^bearer /i.test(authorization) ? authorization.slice(7).trim() : undefined;
  const apiKey = request.headers['x-api-key'];
  if (bearer === undefined && apiKey === undefined) return jsonReply(401, SERVER_AUTH_ERRORS.required, { 'www-authenticate': 'Bearer' });
  if (bearer !== undefined) return mode === 'bearer' && authorization === `Bearer ${key}` ? undefined : jsonReply(401, SERVER_AUTH_ERRORS.invalidToken);
  return mode === 'x-api-key' && apiKey === key ? undefined : jsonReply(401, SERVER_AUTH_ERRORS.invalidKey);
}
