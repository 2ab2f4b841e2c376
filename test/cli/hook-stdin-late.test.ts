// A Hook that could not run while its budget ran out (stopped, or starved of CPU by a loaded
// machine) still answers from the input the host wrote (hooks.md §1, the stdin grace), on the
// executable and on the bundle under Node.js and Deno. Before the grace, the Node.js bundle niced
// next to a CPU hog answered write-confirmation's invalid-request deny to valid input.
//
// Proof by events: the writer waits until the Hook has provably started (its runtime clock runs:
// a thread of it blocks in a read of stdin, or, under Node.js, its JavaScript has set stdin
// non-blocking, which a bare `node` never does), then stops it with SIGSTOP, writes the whole
// input, closes stdin, and resumes it only once the budget is past due by more than
// STDIN_LATE_MS. So at resumption both the budget's expiry and the input are waiting; the answer
// must be the ask, and the log's durationMs (the Hook's own clock) shows the budget had run out.
// The waits here set that state up; none decides the outcome, and LIVENESS_MS guards each.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { HOOK_BUDGET_MS, hookDeadlineMs } from '../../src/hooks/hook-io.ts';
import { STDIN_LATE_MS } from '../../src/hooks/stdin-deadline.ts';
import type { RuntimeName } from '../../src/runtime/runtime.ts';
import { DENO_BASE_PERMISSIONS, denoLauncher, nodeLauncher } from '../bundle/bundle-runtimes.ts';
import { cleanEnv } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { exePath, requireBuilt } from '../support/paths.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { proves } from '../support/runtime-capabilities.ts';

setDefaultTimeout(LIVENESS_MS);
afterAll(removeTempDirs);

const INPUT = JSON.stringify({
  hook_event_name: 'PreToolUse',
  tool_name: 'mcp__external-context__context_remember',
  permission_mode: 'default',
  tool_input: { content: 'Deploys need two approvals.' },
});

/** x86-64 Linux syscall numbers that read a descriptor: read, pread64, readv, recvfrom, recvmsg. */
const READ_SYSCALLS = new Set([0, 17, 19, 45, 47]);
const O_NONBLOCK = 0o4000;

/** Whether a thread of `pid` is blocked in a read of the object that is its fd 0. */
function blockedReadingStdin(pid: number): boolean {
  try {
    const stdin = readlinkSync(`/proc/${pid}/fd/0`);
    return readdirSync(`/proc/${pid}/task`).some((task) => {
      try {
        const [nr, fd] = readFileSync(`/proc/${pid}/task/${task}/syscall`, 'utf8').split(' ');
        return READ_SYSCALLS.has(Number(nr)) && readlinkSync(`/proc/${pid}/fd/${Number.parseInt(fd ?? '', 16)}`) === stdin;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** Whether `pid`'s fd 0 is in non-blocking mode (the Node.js bundle's JavaScript has run). */
function stdinNonBlocking(pid: number): boolean {
  try {
    const match = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/${pid}/fdinfo/0`, 'utf8'));
    return match?.[1] !== undefined && (Number.parseInt(match[1], 8) & O_NONBLOCK) !== 0;
  } catch {
    return false;
  }
}

interface Case {
  readonly runtime: RuntimeName;
  readonly command: string;
  readonly args: (log: string) => readonly string[];
  readonly started: (pid: number) => boolean;
}

function cases(): Case[] {
  const node = nodeLauncher();
  return [
    { runtime: 'bun', command: requireBuilt(exePath()), args: () => [], started: blockedReadingStdin },
    { runtime: 'node', command: node.command, args: () => node.args, started: (pid) => stdinNonBlocking(pid) || blockedReadingStdin(pid) },
    { runtime: 'deno', command: '', args: (log) => denoLauncher([...DENO_BASE_PERMISSIONS, `--allow-write=${log}`]).args, started: blockedReadingStdin },
  ];
}

// Each runtime starts and reads fd 0 its own way (the Node.js bundle's fd 0 turns non-blocking).
const LATE = proves('hook-stdin-grace', ['executable', 'node-bundle', 'deno-bundle']);
const ROW = { bun: 'executable', node: 'node-bundle', deno: 'deno-bundle' } as const;

describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('a Hook stopped past its budget answers from the input written meanwhile', () => {
  for (const hookCase of cases()) {
    test(`write-confirmation on ${hookCase.runtime}: the ask, not the invalid-request deny ${LATE(ROW[hookCase.runtime])}`, async () => {
      const log = path.join((await makeTempDir('ec-hook-late-')).path, 'hook.log');
      const command = hookCase.runtime === 'deno' ? denoLauncher().command : hookCase.command;
      const child = spawn(command, [...hookCase.args(log), 'hook', 'write-confirmation', '--log', log], { env: cleanEnv(), stdio: 'pipe' });
      const guard = setTimeout(() => child.kill('SIGKILL'), LIVENESS_MS);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.stdin.on('error', () => undefined);
      const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
      const pid = child.pid as number;
      try {
        await eventually(() => hookCase.started(pid), `the ${hookCase.runtime} Hook to start reading stdin`);
        const startedBy = Date.now();
        child.kill('SIGSTOP');
        child.stdin.end(INPUT);
        // The budget is due at most HOOK_BUDGET_MS after startedBy; resume well past STDIN_LATE_MS beyond it.
        const resumeAt = startedBy + HOOK_BUDGET_MS + 2 * STDIN_LATE_MS;
        await eventually(() => Date.now() >= resumeAt, 'the budget to be past due');
      } finally {
        child.kill('SIGCONT');
      }
      const code = await closed;
      clearTimeout(guard);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
      const line = JSON.parse(readFileSync(log, 'utf8')) as { outcome: string; durationMs: number };
      expect(line.outcome).toBe('ask');
      expect(line.durationMs).toBeGreaterThanOrEqual(hookDeadlineMs(hookCase.runtime));
    });
  }
});
