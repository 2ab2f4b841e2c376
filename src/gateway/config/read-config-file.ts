// Reads the Frontend MCP configuration file once (docs/design/frontend-mcp.md §2.1): a regular file of at
// most 1 MiB, strict UTF-8, JSON. Failures name a fixed reason, never the path or the content.
import { findDuplicateKey, formatFieldPath } from '../../config/duplicate-keys.ts';
import { readRegularFile, type RegularFileRead } from '../../config/read-regular-file.ts';
import { configInvalid, FrontendMcpError } from '../frontend-mcp-error.ts';
import { printableKeyOrMark } from './printable-key.ts';

/** Largest configuration file, in bytes (1 MiB). */
export const MAX_CONFIG_FILE_BYTES = 1048576;

/**
 * Reads and parses the file at an absolute path.
 *
 * @param path Absolute path of the file.
 * @returns The parsed JSON value.
 * @throws {FrontendMcpError} `frontend_mcp_config_unavailable` with
 *   `Unable to read Frontend MCP configuration: <reason>`, reason one of `the file does not
 *   exist`, `not a regular file`, `the file is larger than 1048576 bytes`, `the file could not
 *   be read`, `invalid UTF-8`, `invalid JSON`; `frontend_mcp_config_invalid` with
 *   `Frontend MCP configuration contains a duplicate field: <path>` for a key repeated in one
 *   object at any depth.
 * @see docs/design/frontend-mcp.md §2.1
 */
export async function readConfigFile(path: string): Promise<unknown> {
  let read: RegularFileRead;
  try {
    // One descriptor, opened without blocking (docs/design/config.md §3): never a path checked, then reopened.
    read = await readRegularFile(path, MAX_CONFIG_FILE_BYTES);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    throw unavailable(code === 'ENOENT' || code === 'ENOTDIR' ? 'the file does not exist' : 'the file could not be read', error);
  }
  if (read.kind === 'not-a-file') throw unavailable('not a regular file');
  if (read.kind === 'too-large') throw unavailable(`the file is larger than ${MAX_CONFIG_FILE_BYTES} bytes`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch (error) {
    throw unavailable('invalid UTF-8', error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw unavailable('invalid JSON', error);
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined) throw configInvalid(`Frontend MCP configuration contains a duplicate field: ${formatFieldPath(duplicate, printableKeyOrMark)}`);
  return value;
}

function unavailable(reason: string, cause?: unknown): FrontendMcpError {
  return new FrontendMcpError('frontend_mcp_config_unavailable', `Unable to read Frontend MCP configuration: ${reason}`, { cause });
}
