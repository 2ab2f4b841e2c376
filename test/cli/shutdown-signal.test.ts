// shutdownSignal(): the first SIGINT or SIGTERM ends the wait and removes both handlers, so a
// second signal gets the runtime's default. Signals are emitted in-process (no real kill).
import { describe, expect, test } from 'bun:test';
import process from 'node:process';
import { shutdownSignal } from '../../src/cli/shutdown-signal.ts';

describe('shutdownSignal()', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`shutdownSignal() resolves on ${signal} and removes its SIGINT and SIGTERM handlers`, async () => {
      const before = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') };
      const stopped = shutdownSignal();
      expect(process.listenerCount('SIGINT')).toBe(before.SIGINT + 1);
      expect(process.listenerCount('SIGTERM')).toBe(before.SIGTERM + 1);
      process.emit(signal);
      await stopped;
      expect(process.listenerCount('SIGINT')).toBe(before.SIGINT);
      expect(process.listenerCount('SIGTERM')).toBe(before.SIGTERM);
    });
  }
});
