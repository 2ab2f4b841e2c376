// SIGHUP as the reload request of the long-running servers (`serve`, `serve --http`, `corpus
// serve`; docs/design/remote.md §1.13): one reload at a time, a signal during a reload runs one
// more afterwards, and once the server stops the signal is ignored.
import process from 'node:process';

/**
 * Runs `reload` on every SIGHUP until the returned function is called.
 *
 * While a reload runs, further signals are folded into one more reload after it, so the last
 * signal always sees the newest file. On Windows, which has no SIGHUP, nothing is installed.
 *
 * @param reload Re-reads the configuration; must not throw (it reports its own failure).
 * @returns Stops reloading: later signals are ignored (the handler that ignores them stays, so
 *   a SIGHUP during the shutdown that follows cannot end the process).
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
    // Ignored from now on, not uninstalled: without a handler SIGHUP ends the process, and a
    // reload signal during the graceful shutdown (logrotate, systemctl reload) cut off the calls
    // still finishing (exit 129; found by a hostile test). The process exits through main.ts.
    process.off('SIGHUP', run);
    process.on('SIGHUP', ignoreSignal);
  };
}

/** The SIGHUP handler once reloading stopped: the signal is ignored. */
function ignoreSignal(): void {}
