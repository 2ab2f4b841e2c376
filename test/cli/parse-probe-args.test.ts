// parseProbeArgs(): the probe's own argument loop and its verbatim messages (probe.md §1.1).
import { describe, expect, test } from 'bun:test';
import { parseProbeArgs } from '../../src/cli/parse-probe-args.ts';
import { UsageError } from '../../src/cli/usage-error.ts';

function failure(args: string[]): string {
  try {
    parseProbeArgs(args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).verbatim).toBe(true);
    return (error as UsageError).stderrText();
  }
  throw new Error('parseProbeArgs() accepted the arguments.');
}

describe('parseProbeArgs()', () => {
  test('reads --name value pairs and the two boolean flags', () => {
    expect(
      parseProbeArgs(['--preset', 'p', '--origin', 'o', '--base-path', '/b', '--user-id', 'u', '--agent-id', 'a', '--app-id', 'x', '--credential-env', 'K', '--allow-insecure-http', '--json']),
    ).toEqual({ preset: 'p', origin: 'o', basePath: '/b', userId: 'u', agentId: 'a', appId: 'x', credentialEnv: 'K', allowInsecureHttp: true, json: true });
    expect(parseProbeArgs([])).toEqual({ allowInsecureHttp: false, json: false });
  });

  test('a value may start with a single dash or be empty; a repeated flag keeps its last value', () => {
    expect(parseProbeArgs(['--user-id', '-u', '--user-id', ''])).toMatchObject({ userId: '' });
    expect(parseProbeArgs(['--agent-id', '-'])).toMatchObject({ agentId: '-' });
  });

  test('--name=value is an unknown argument, even for a known flag', () => {
    expect(failure(['--origin=https://x'])).toBe('Unknown probe argument: --origin=https://x');
    expect(failure(['--json=true'])).toBe('Unknown probe argument: --json=true');
  });

  test('unknown flags and stray values are unknown arguments', () => {
    expect(failure(['--verbose'])).toBe('Unknown probe argument: --verbose');
    expect(failure(['--json', 'extra'])).toBe('Unknown probe argument: extra');
    expect(failure(['-p', 'x'])).toBe('Unknown probe argument: -p');
    expect(failure(['--'])).toBe('Unknown probe argument: --');
  });

  test('a value flag at the end or followed by another -- flag requires a value', () => {
    expect(failure(['--preset'])).toBe('--preset requires a value.');
    expect(failure(['--origin', '--json'])).toBe('--origin requires a value.');
    expect(failure(['--config', '--json'])).toBe('--config requires a value.');
    expect(failure(['--credential-env', '--'])).toBe('--credential-env requires a value.');
  });

  test('--config combines only with --json', () => {
    expect(parseProbeArgs(['--config', '/etc/x.json', '--json'])).toEqual({ config: '/etc/x.json', allowInsecureHttp: false, json: true });
    expect(parseProbeArgs(['--json', '--config', '/etc/x.json'])).toMatchObject({ config: '/etc/x.json', json: true });
    const combined = '--config cannot be combined with other probe arguments.';
    expect(failure(['--config', '/etc/x.json', '--preset', 'p'])).toBe(combined);
    expect(failure(['--allow-insecure-http', '--config', '/etc/x.json'])).toBe(combined);
    expect(failure(['--config', '/etc/x.json', '--user-id', 'u'])).toBe(combined);
  });
});
