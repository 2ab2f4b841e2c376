// Reads the Frontend MCP configuration file once (docs/design/frontend-mcp.md §2.1): a regular file of at
// most 1 MiB, strict UTF-8, JSON. Failures name a fixed reason, never the path or the content.
import { readFile, stat } from 'node:fs/promises';
import { FrontendMcpError } from '../frontend-mcp-error.ts';

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
 *   be read`, `invalid UTF-8`, `invalid JSON`.
 * @see docs/design/frontend-mcp.md §2.1
 */
export async function readConfigFile(path: string): Promise<unknown> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw unavailable('not a regular file');
    size = info.size;
  } catch (error) {
    if (error instanceof FrontendMcpError) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    throw unavailable(code === 'ENOENT' || code === 'ENOTDIR' ? 'the file does not exist' : 'the file could not be read', error);
  }
  if (size > MAX_CONFIG_FILE_BYTES) throw unavailable(`the file is larger than ${MAX_CONFIG_FILE_BYTES} bytes`);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw unavailable('the file could not be read', error);
  }
  // The file may have grown between stat and read.
  if (bytes.byteLength > MAX_CONFIG_FILE_BYTES) throw unavailable(`the file is larger than ${MAX_CONFIG_FILE_BYTES} bytes`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw unavailable('invalid UTF-8', error);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw unavailable('invalid JSON', error);
  }
}

function unavailable(reason: string, cause?: unknown): FrontendMcpError {
  return new FrontendMcpError('frontend_mcp_config_unavailable', `Unable to read Frontend MCP configuration: ${reason}`, { cause });
}
