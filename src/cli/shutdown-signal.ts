// Waiting for an operator's stop: the long-running listeners (`serve --http`, `corpus serve`)
// shut down gracefully on the first SIGINT or SIGTERM.
import process from 'node:process';

/**
 * Resolves on the first SIGINT or SIGTERM. Its handlers are installed when it is called, so
 * call it before announcing the listener; they are removed on that first signal, so a second
 * signal gets the runtime's default (ends the process).
 *
 * @returns A promise that resolves (with no value) on the first of the two signals.
 */
export function shutdownSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
