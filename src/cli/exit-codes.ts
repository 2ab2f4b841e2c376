// Exit codes shared by every command (docs/design/README.md, "Commands, exit codes and runtimes").

/** The job is done and the answer is good. */
export const EXIT_OK = 0;
/** The job failed or the answer is bad. */
export const EXIT_FAILURE = 1;
/** The command could not run as asked (usage error). */
export const EXIT_USAGE = 2;
