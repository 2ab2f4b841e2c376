// BuildFailure: a build step that could not produce its artifact. Carries the bundler's
// messages (file, line, text) so build.ts can print them; raised by compile.ts and bundle.ts.

/** A build step failed; `details` holds one line per bundler message. */
export class BuildFailure extends Error {
  override readonly name = 'BuildFailure';
  /** Bundler messages, one per line, as Bun formats them. */
  readonly details: readonly string[];

  constructor(message: string, details: readonly string[] = [], options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.details = details;
  }
}

/**
 * Turns what Bun.build threw into a BuildFailure.
 *
 * @param step What was being built, for the message (`compile linux-x64`).
 * @param error The value Bun.build threw (an AggregateError of BuildMessage/ResolveMessage).
 * @returns A BuildFailure listing every bundler message.
 */
export function toBuildFailure(step: string, error: unknown): BuildFailure {
  const causes: unknown[] = error instanceof AggregateError ? error.errors : [error];
  const details = causes.map((cause) => String(cause));
  return new BuildFailure(`${step} failed.`, details, { cause: error });
}
