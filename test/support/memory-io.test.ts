// memoryIo() and runInMemory(): the shared in-memory Io gives a command an empty (or given) stdin, the
// given env and cwd, and hands back what it wrote to stdout and stderr.
import { describe, expect, test } from 'bun:test';
import type { Io } from '../../src/cli/io.ts';
import { memoryIo, runInMemory } from './memory-io.ts';

describe('memoryIo()', () => {
  test('memoryIo() defaults to an empty env, process.cwd(), no TTY, and an ended stdin', async () => {
    const { io, stdout, stderr } = memoryIo();
    expect(io.env).toEqual({});
    expect(io.cwd).toBe(process.cwd());
    expect(io.stderrIsTty).toBe(false);
    expect(io.scriptPath).toBeUndefined();
    const chunks: unknown[] = [];
    for await (const chunk of io.stdin) chunks.push(chunk);
    expect(chunks).toEqual([]);
    expect(stdout()).toBe('');
    expect(stderr()).toBe('');
  });

  test('memoryIo({stdin}) gives the command those bytes, then the end', async () => {
    const { io } = memoryIo({ stdin: '{"a":1}' });
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString('utf8')).toBe('{"a":1}');
  });

  test('runInMemory() returns the exit code and what the command wrote to each stream', async () => {
    const command = async (args: string[], io: Io): Promise<number> => {
      io.stdout.write(`${args.join(' ')} in ${io.cwd}\n`);
      io.stderr.write(`env ${io.env['NAME'] ?? ''} tty ${io.stderrIsTty}\n`);
      return 3;
    };
    expect(await runInMemory(command, ['a', 'b'], { env: { NAME: 'x' }, cwd: '/somewhere', stderrIsTty: true })).toEqual({
      code: 3,
      stdout: 'a b in /somewhere\n',
      stderr: 'env x tty true\n',
    });
  });
});
