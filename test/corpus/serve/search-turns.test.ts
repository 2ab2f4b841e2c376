// The turns of corpus searches (docs/design/providers.md §8.2): one statement at a time, I/O
// first between statements, then the search that has used the least time.
import { describe, expect, test } from 'bun:test';
import { setImmediate } from 'node:timers';
import { createSearchTurns, MAX_PASSED_OVER, type Turn } from '../../../src/corpus/serve/search-turns.ts';

// A statement that costs measurable time: spins until the clock has moved on.
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy, like a long SQLite statement
  }
}

describe('createSearchTurns()', () => {
  test('a short search started beside a long one runs all its statements before the long one continues', async () => {
    const turns = createSearchTurns();
    const log: string[] = [];
    const long = turns.run(async (turn: Turn) => {
      for (let i = 1; i <= 3; i++) {
        await turn();
        log.push(`long${i}`);
        spin(20);
      }
    });
    const short = turns.run(async (turn: Turn) => {
      for (let i = 1; i <= 3; i++) {
        await turn();
        log.push(`short${i}`);
      }
      return 'done';
    });
    expect(await short).toBe('done');
    await long;
    expect(log).toEqual(['long1', 'short1', 'short2', 'short3', 'long2', 'long3']);
  });

  test('I/O queued during a statement runs before the next statement', async () => {
    const turns = createSearchTurns();
    const log: string[] = [];
    await turns.run(async (turn: Turn) => {
      await turn();
      log.push('statement1');
      setImmediate(() => log.push('io'));
      await turn();
      log.push('statement2');
    });
    expect(log).toEqual(['statement1', 'io', 'statement2']);
  });

  test('a failing search gives its turn back', async () => {
    const turns = createSearchTurns();
    const failing = turns.run(async (turn: Turn) => {
      await turn();
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    expect(
      await turns.run(async (turn: Turn) => {
        await turn();
        return 1;
      }),
    ).toBe(1);
  });
});

describe('createSearchTurns() never starves a search', () => {
  test(`a long search waits for at most MAX_PASSED_OVER turns of newer short ones`, async () => {
    const turns = createSearchTurns();
    const log: string[] = [];
    const shorts: Promise<void>[] = [];
    const long = turns.run(async (turn: Turn) => {
      await turn();
      log.push('long1');
      spin(20);
      // Newer searches than MAX_PASSED_OVER arrive while the long one holds its turn.
      for (let i = 0; i < MAX_PASSED_OVER + 4; i++) {
        shorts.push(
          turns.run(async (next: Turn) => {
            await next();
            log.push(`short${i}`);
          }),
        );
      }
      await turn();
      log.push('long2');
    });
    await long;
    await Promise.all(shorts);
    expect(log.indexOf('long2')).toBe(MAX_PASSED_OVER + 1);
  });
});
