// Drops any stdin line longer than a limit before the SDK's stdio transport sees it. The SDK's
// read buffer closes the transport and pauses stdin on a message over 10 MiB, after which serve
// would exit 0 silently while the client is still connected; no legitimate message comes near
// 1 MiB, so one oversized line is discarded and later lines keep flowing.
import { Transform, type TransformCallback } from 'node:stream';

/** The longest line passed on, in bytes (newline excluded): well below the SDK's 10 MiB. */
export const MAX_STDIO_LINE_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;

/** Passes complete lines (each with its `\n`) of at most `maxLineBytes`; drops longer ones. */
export class LineLengthGuard extends Transform {
  readonly #maxLineBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #discarding = false;

  /** @param maxLineBytes The longest line passed on, in bytes. */
  constructor(maxLineBytes: number = MAX_STDIO_LINE_BYTES) {
    super();
    this.#maxLineBytes = maxLineBytes;
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
      if (!this.#discarding) this.push(Buffer.concat([...this.#pending, Buffer.from([NEWLINE])]));
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
}
