// thrownBy() and rejectionOf(): return the error of the expected class, and fail a test whose
// call does not throw or reject.
import { describe, expect, test } from 'bun:test';
import { rejectionOf, thrownBy } from './thrown-error.ts';

class SampleError extends Error {
  override readonly name = 'SampleError';
  constructor(readonly kind: string) {
    super('sample failed.');
  }
}

describe('thrownBy() and rejectionOf()', () => {
  test('thrownBy() returns the synchronously thrown error and throws when nothing is thrown', () => {
    expect(
      thrownBy(SampleError, () => {
        throw new SampleError('sync');
      }).kind,
    ).toBe('sync');
    expect(() => thrownBy(SampleError, () => 1)).toThrow('expected a SampleError to be thrown');
  });

  test('rejectionOf() returns the rejection and throws when the promise resolves', async () => {
    expect((await rejectionOf(SampleError, Promise.reject(new SampleError('async')))).kind).toBe('async');
    await expect(rejectionOf(SampleError, Promise.resolve(1))).rejects.toThrow('expected a SampleError rejection');
  });
});
