// Catching the error a call is expected to throw: the class is checked with expect(), and the
// error comes back for the test's own assertions (message, fieldPath, kind, no canary).
import { expect } from 'bun:test';

/** Any error class, whatever its constructor takes. */
export type ErrorClass<E extends Error> = abstract new (...args: never[]) => E;

/**
 * Runs `run` and returns what it threw.
 *
 * @param type The class the error must be an instance of.
 * @param run The call expected to throw synchronously.
 * @returns The thrown error.
 * @throws {Error} When `run` returns instead (the test fails).
 */
export function thrownBy<E extends Error>(type: ErrorClass<E>, run: () => unknown): E {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected a ${type.name} to be thrown`);
}

/**
 * Awaits `promise` and returns what it rejected with.
 *
 * @param type The class the rejection must be an instance of.
 * @param promise The work expected to reject.
 * @returns The rejection.
 * @throws {Error} When `promise` resolves instead (the test fails).
 */
export async function rejectionOf<E extends Error>(type: ErrorClass<E>, promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected a ${type.name} rejection`);
}
