// Bounds every stdin line before the SDK's stdio transport sees it (docs/design/profile-v1.md §6.1).
// The SDK's read buffer closes the transport and pauses stdin on a message over 10 MiB, after
// which serve would exit 0 silently while the client is still connected, and JSON.parse of a
// line nested millions of levels deep takes hundreds of megabytes. So a line over 4 MiB, or
// nested deeper than 64 levels, never reaches the parser: it is refused (the caller answers a
// JSON-RPC error with `id: null`) and later lines keep flowing.
import { Transform, type TransformCallback } from 'node:stream';

/** The longest line passed on, in bytes (newline excluded): well below the SDK's 10 MiB. */
export const MAX_STDIO_LINE_BYTES = 4 * 1024 * 1024;
/** The deepest nesting of `[` and `{` (outside strings) passed on. */
export const MAX_STDIO_DEPTH = 64;

/** Why a line was refused. */
export type LineRefusal = 'too-large' | 'too-deep';

const NEWLINE = 0x0a;
/** The newline each passed line ends with (Buffer.concat copies it; never written to). */
const NEWLINE_BYTE = Buffer.from([NEWLINE]);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Options of {@link LineLengthGuard}. */
export interface LineGuardOptions {
  /** The longest line passed on, in bytes (default MAX_STDIO_LINE_BYTES). */
  readonly maxLineBytes?: number;
  /** The deepest nesting passed on (default MAX_STDIO_DEPTH). */
  readonly maxDepth?: number;
  /** Called once per refused line, in stdin order. */
  readonly onRefused?: (reason: LineRefusal) => void;
  /** Called with each line within the limits; returning true drops it (the caller answered it). */
  readonly onLine?: (line: Buffer) => boolean;
}

/** Passes complete lines (each with its `\n`) of at most `maxLineBytes` and `maxDepth`; refuses the others. */
export class LineLengthGuard extends Transform {
  readonly #maxLineBytes: number;
  readonly #maxDepth: number;
  readonly #onRefused: (reason: LineRefusal) => void;
  readonly #onLine: (line: Buffer) => boolean;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #discarding = false;

  /** @param options Limits and the refusal callback. */
  constructor(options: LineGuardOptions = {}) {
    super();
    this.#maxLineBytes = options.maxLineBytes ?? MAX_STDIO_LINE_BYTES;
    this.#maxDepth = options.maxDepth ?? MAX_STDIO_DEPTH;
    this.#onRefused = options.onRefused ?? (() => {});
    this.#onLine = options.onLine ?? (() => false);
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback): void {
    let data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (data.length > 0) {
      const newline = data.indexOf(NEWLINE);
      const part = newline === -1 ? data : data.subarray(0, newline);
      if (!this.#discarding) {
        if (this.#pendingBytes + part.length > this.#maxLineBytes) {
          this.#discarding = true;
          this.#pending = [];
          this.#pendingBytes = 0;
        } else {
          this.#pending.push(part);
          this.#pendingBytes += part.length;
        }
      }
      if (newline === -1) break;
      if (this.#discarding) this.#onRefused('too-large');
      else this.#passLine(Buffer.concat([...this.#pending, NEWLINE_BYTE]));
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#discarding = false;
      data = data.subarray(newline + 1);
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    // An unterminated last line is passed on as it is (the SDK ignores it without a newline).
    if (!this.#discarding && this.#pendingBytes > 0) this.push(Buffer.concat(this.#pending));
    callback();
  }

  #passLine(line: Buffer): void {
    if (nestingExceeds(line, this.#maxDepth)) this.#onRefused('too-deep');
    else if (!this.#onLine(line)) this.push(line);
  }
}

/** True when `[`/`{` outside JSON strings nest deeper than `max`. */
function nestingExceeds(line: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  // An indexed loop: the iterator protocol per byte cost more than the scan itself (issue 18).
  for (let index = 0; index < line.length; index++) {
    const byte = line[index] as number;
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > max) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return false;
}

/**
 * The JSON-RPC error line answering a refused line (`id: null`: the id was never read).
 *
 * @param reason Why the line was refused.
 * @returns One line, newline included.
 * @see docs/design/profile-v1.md §6.1
 */
export function refusalLine(reason: LineRefusal): string {
  const message = reason === 'too-large' ? 'Request too large: a message may hold at most 4194304 bytes.' : 'Request nested too deeply: at most 64 levels.';
  return `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message } })}\n`;
}
