// Reading newline-delimited output of a child process (JSON-RPC over stdio, log lines) in the
// test and bench drivers: one splitter instead of a hand-written buffer loop per driver.
import type { Readable } from 'node:stream';

/**
 * Calls `onLine` with each complete line `stream` emits (UTF-8, without the `\n`); a last line
 * without a newline is not delivered.
 */
export function onLines(stream: Readable, onLine: (line: string) => void): void {
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (buffer + chunk).split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}

/**
 * Calls `onMessage` with each non-blank line of `stream` parsed as JSON.
 *
 * @throws {SyntaxError} From the stream's `data` handler when a line is not JSON (a driver bug
 *   or a server writing something else to stdout: the test should fail loudly).
 */
export function onJsonLines(stream: Readable, onMessage: (message: Record<string, unknown>) => void): void {
  onLines(stream, (line) => {
    if (line.trim() !== '') onMessage(JSON.parse(line) as Record<string, unknown>);
  });
}
