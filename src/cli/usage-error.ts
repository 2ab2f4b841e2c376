// UsageError: a command line that cannot run as asked (exit 2, docs/design/README.md "Usage errors").

/** A bad command line. `verbatim` messages come from the spec and get nothing appended. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The subcommand as typed (`gateway call`), for the ` Run "external-context <command> --help".` suffix. */
  readonly command: string;
  /** True when the message is a spec string printed exactly as given. */
  readonly verbatim: boolean;

  constructor(message: string, command: string, options: { verbatim?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.command = command;
    this.verbatim = options.verbatim ?? false;
  }

  /**
   * The stderr line without the `[external-context] ` prefix. Not named `line`: Bun sets own
   * `line`/`column` properties on thrown errors, which would shadow a prototype method.
   */
  stderrText(): string {
    return this.verbatim ? this.message : `${this.message} Run "external-context ${this.command} --help".`;
  }
}
