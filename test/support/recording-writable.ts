// A writable stream that keeps every write in memory, for checking what a command or Hook wrote
// (and how many writes it took) without a real file descriptor.
import { Writable } from 'node:stream';

/** The stream plus the text of each write, in order. */
export interface RecordingWritable {
  readonly stream: Writable;
  /** One UTF-8 string per write call. */
  readonly writes: string[];
  /** Everything written, joined. */
  text(): string;
}

/** Creates a writable stream that records each write as one string. */
export function recordingWritable(): RecordingWritable {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      writes.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      callback();
    },
  });
  return { stream, writes, text: () => writes.join('') };
}
