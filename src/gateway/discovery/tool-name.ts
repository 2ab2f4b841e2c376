// Model-visible tool names (docs/design/frontend-mcp.md §4): `mcp__<server>__<tool>` when that is at most
// 64 characters of [A-Za-z0-9_-], otherwise a stable hashed form of at most 64 characters.
import { createHash } from 'node:crypto';

const PLAIN_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Characters of the sanitized base kept before the hash suffix. */
const HASHED_PREFIX_LENGTH = 55;

/** The base form `mcp__<server key>__<remote tool name>`. */
export function baseToolName(serverKey: string, remoteName: string): string {
  return `mcp__${serverKey}__${remoteName}`;
}

/** True when the base form can be used unchanged. */
export function isPlainToolName(name: string): boolean {
  return PLAIN_NAME.test(name);
}

/**
 * The hashed name: the base with every character outside [A-Za-z0-9_-] replaced by `_`, cut to
 * 55 characters, then `_` and the first 8 hex characters of SHA-256 over the UTF-8 bytes of
 * `<server key>` U+0000 `<remote tool name>`.
 *
 * @param serverKey The server's configuration key.
 * @param remoteName The server's raw tool name.
 * @returns A name of at most 64 characters that depends only on the two inputs.
 * @see docs/design/frontend-mcp.md §4
 */
export function hashedToolName(serverKey: string, remoteName: string): string {
  const sanitized = baseToolName(serverKey, remoteName).replace(/[^A-Za-z0-9_-]/gu, '_').slice(0, HASHED_PREFIX_LENGTH);
  const digest = createHash('sha256').update(`${serverKey}\u0000${remoteName}`, 'utf8').digest('hex').slice(0, 8);
  return `${sanitized}_${digest}`;
}
