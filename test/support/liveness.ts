// The one hang guard of the suite (issue 25 §1; docs/design/style.md, "Tests"): how long a test,
// a child process or a wait may take before it counts as hung. It is sized for the slowest
// machine CI may run on (2 cores with a CPU hog beside the run: load 15-25 measured), so it
// never decides an outcome on a healthy machine, only ends a run that would otherwise hang.
// Speed is measured by `npm run bench`, never asserted here.

/** Five minutes: a liveness guard, never a performance target. */
export const LIVENESS_MS = 300_000;
