// SIGHUP as the reload request of the long-running servers (`serve`, `serve --http`, `corpus
// serve`; docs/design/remote.md §1.13): one reload at a time, a signal during a reload runs one
// more afterwards, and the handler goes when the server stops.
import process from 'node:process';

/**
 * Runs `reload` on every SIGHUP until the returned function is called.
 *
 * While a reload runs, further signals are folded into one more reload after it, so the last
 * signal always sees the newest file. On Windows, which has no SIGHUP, nothing is installed.
 *
 * @param reload Re-reads the configuration; must not throw (it reports its own failure).
 * @returns Removes the handler.
 */
export function onReloadSignal(reload: () => Promise<void>): () => void {
  if (process.platform === 'win32') return () => undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): void => {
    if (running !== undefined) {
      again = true;
      return;
    }
    running = reload().finally(() => {
      running = undefined;
      if (!again) return;
      again = false;
      run();
    });
  };
  process.on('SIGHUP', run);
  return () => {
    process.off('SIGHUP', run);
  };
}
