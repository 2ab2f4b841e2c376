// writeOut / writeErr / writeError (src/cli/io.ts): through the descriptors while `stdioFds` is
// set, without touching the streams; through the streams when it is absent; and a descriptor
// that cannot be written hands the text to the stream, which then reports the failure itself.
import { afterAll, describe, expect, test } from 'bun:test';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { type Io, writeErr, writeError, writeOut } from '../../src/cli/io.ts';
import { recordingWritable } from '../support/recording-writable.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

afterAll(async () => {
  await removeTempDirs();
});

function ioWith(fields: Partial<Io>): Io {
  return { stdin: new PassThrough(), env: {}, cwd: '/', execPath: '/x', scriptPath: undefined, startedAtMs: 0, stderrIsTty: false, ...fields } as Io;
}

const untouchable = (): never => {
  throw new Error('a stream was used');
};

describe('writeOut() and writeErr()', () => {
  test('write through the descriptors while stdioFds is set and never touch the streams', async () => {
    const dir = (await makeTempDir('ec-io-fd-')).path;
    const stdout = openSync(path.join(dir, 'out'), 'w');
    const stderr = openSync(path.join(dir, 'err'), 'w');
    const io = ioWith({ stdioFds: { stdin: 0, stdout, stderr } });
    Object.defineProperty(io, 'stdout', { get: untouchable });
    Object.defineProperty(io, 'stderr', { get: untouchable });
    try {
      writeOut(io, 'external-context 0.1.0 (commit unknown)\n');
      writeOut(io, 'é ✓\n');
      writeErr(io, 'operator line\n');
      writeError(io, 'Unknown command.');
    } finally {
      closeSync(stdout);
      closeSync(stderr);
    }
    expect(readFileSync(path.join(dir, 'out'), 'utf8')).toBe('external-context 0.1.0 (commit unknown)\né ✓\n');
    expect(readFileSync(path.join(dir, 'err'), 'utf8')).toBe('operator line\n[external-context] Unknown command.\n');
  });

  test('write through the streams when stdioFds is absent', () => {
    const out = recordingWritable();
    const err = recordingWritable();
    const io = ioWith({ stdout: out.stream, stderr: err.stream });
    writeOut(io, 'data\n');
    writeError(io, 'Unknown command.');
    expect(out.writes).toEqual(['data\n']);
    expect(err.writes).toEqual(['[external-context] Unknown command.\n']);
  });

  test('a descriptor that cannot be written hands the whole text to the stream', async () => {
    const file = path.join((await makeTempDir('ec-io-fd-')).path, 'read-only');
    writeFileSync(file, '');
    const readOnly = openSync(file, 'r');
    const out = recordingWritable();
    const io = ioWith({ stdout: out.stream, stdioFds: { stdin: 0, stdout: readOnly } });
    try {
      writeOut(io, 'line one\n');
    } finally {
      closeSync(readOnly);
    }
    expect(out.text()).toBe('line one\n');
  });
});
