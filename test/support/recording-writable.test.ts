// recordingWritable(): one string per write, in order, and their concatenation.
import { expect, test } from 'bun:test';
import { recordingWritable } from './recording-writable.ts';

test('recordingWritable() keeps each write as one UTF-8 string and joins them in text()', async () => {
  const { stream, writes, text } = recordingWritable();
  stream.write('{"a":');
  await new Promise<void>((resolve) => stream.write(new TextEncoder().encode('"🙂"}'), () => resolve()));
  expect(writes).toEqual(['{"a":', '"🙂"}']);
  expect(text()).toBe('{"a":"🙂"}');
});
