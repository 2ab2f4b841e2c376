// runProcess() and cleanEnv(): exit codes, streams, stdin, environment and the hang guard.
import { describe, expect, test } from 'bun:test';
import { cleanEnv } from './env.ts';
import { runProcess } from './run-process.ts';

const BUN = process.execPath;

describe('runProcess()', () => {
  test('returns the exit code, stdout and stderr, and feeds stdin', async () => {
    const script = 'let s="";process.stdin.on("data",d=>s+=d);process.stdin.on("end",()=>{process.stdout.write(s.toUpperCase());process.stderr.write("err");process.exit(3)})';
    const result = await runProcess(BUN, ['-e', script], { stdin: 'héllo' });
    expect(result).toEqual({ code: 3, signal: null, stdout: 'HÉLLO', stderr: 'err', timedOut: false });
  });

  test('passes only the given environment', async () => {
    const result = await runProcess(BUN, ['-e', 'process.stdout.write(JSON.stringify(Object.keys(process.env).filter(k=>k.startsWith("EC_"))))'], {
      env: cleanEnv({ EC_ONE: '1' }),
    });
    expect(JSON.parse(result.stdout)).toEqual(['EC_ONE']);
  });

  test('kills a process that outlives the hang guard', async () => {
    const result = await runProcess(BUN, ['-e', 'setInterval(()=>{},1000)'], { stdin: 'open', timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
  });

  test('rejects when the command does not exist', async () => {
    await expect(runProcess('/nonexistent/ec-test-binary', [])).rejects.toThrow();
  });
});

describe('cleanEnv()', () => {
  test('keeps PATH, drops proxies and other variables, applies extras', () => {
    process.env['HTTPS_PROXY_EC_TEST'] = 'x';
    const env = cleanEnv({ A: 'a', PATH: undefined });
    delete process.env['HTTPS_PROXY_EC_TEST'];
    expect(env['A']).toBe('a');
    expect(env['PATH']).toBeUndefined();
    expect(Object.keys(env).some((k) => /proxy/i.test(k))).toBe(false);
    expect(cleanEnv()['PATH']).toBe(process.env['PATH'] as string);
  });
});
