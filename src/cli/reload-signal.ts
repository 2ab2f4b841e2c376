// SIGHUP as the reload request of the long-running servers (`serve`, `serve --http`, `corpus
// serve`; docs/design/remote.md §1.13): caught from the first statement of main.ts, so a signal
// during start-up is recorded instead of ending the process; one reload at a time, a signal
// during a reload runs one more afterwards, and once the server stops the signal is ignored.
import process from 'node:process';

/** Whether the one SIGHUP listener is installed. */
let installed = false;
/** Set by a signal before {@link onReloadSignal}: that call then runs one reload. */
let pending = false;
/** The serving state's handler; undefined while starting and once stopped. */
let handler: (() => void) | undefined;

/** Set once the server stopped: a signal is ignored, neither run nor recorded. */
let stopped = false;

/** The listener: reloads while serving, records while starting, ignores once stopped. */
function onSignal(): void {
  if (handler !== undefined) handler();
  else if (!stopped) pending = true;
}

/**
 * Catches SIGHUP from now on in the "starting" state: a signal is recorded, and
 * {@link onReloadSignal} runs one reload for it once the server is up. Called by main.ts as its
 * first statement for `serve` and `corpus serve`, before the stdio guard's listener (which then
 * leaves the signal to this one). Without it SIGHUP's default action ends the process (exit
 * 129), and systemd's `ExecReload=kill -HUP $MAINPID` right after a start left the service
 * down (issue 30 §3). Only the first call does anything; on Windows, which has no SIGHUP, nothing.
 */
export function holdReloadSignal(): void {
  if (installed || process.platform === 'win32') return;
  installed = true;
  process.on('SIGHUP', onSignal);
}

/**
 * Runs `reload` on every SIGHUP until the returned function is called, and once at once when a
 * SIGHUP arrived while starting ({@link holdReloadSignal}): the file read at start-up may
 * predate the signal, and the last signal always sees the newest file.
 *
 * While a reload runs, further signals are folded into one more reload after it. On Windows,
 * which has no SIGHUP, nothing is installed.
 *
 * @param reload Re-reads the configuration; must not throw (it reports its own failure).
 * @returns Stops reloading: later signals are ignored (the listener stays, so a SIGHUP during
 *   the shutdown that follows cannot end the process; it exits through main.ts).
 */
export function onReloadSignal(reload: () => Promise<void>): () => void {
  if (process.platform === 'win32') return () => undefined;
  holdReloadSignal();
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
  stopped = false;
  handler = run;
  if (pending) {
    pending = false;
    run();
  }
  return () => {
    // Ignored from now on, not uninstalled: without a listener SIGHUP ends the process, and a
    // reload signal during the graceful shutdown (logrotate, systemctl reload) cut off the calls
    // still finishing (exit 129; found by a hostile test).
    if (handler === run) handler = undefined;
    stopped = true;
  };
}
