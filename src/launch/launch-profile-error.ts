// LaunchProfileError: the launch profile cannot start Qwen Code (docs/design/examples.md §8.1–§8.3).

/** A launch-profile failure. `message` is the exact spec text; it never holds a value or a variable name. */
export class LaunchProfileError extends Error {
  override readonly name = 'LaunchProfileError';
  /** Dotted field path (`qwenArgs.2`, `credentialEnv.0`), `profile` for the root, or undefined. */
  readonly fieldPath: string | undefined;

  constructor(message: string, fieldPath?: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.fieldPath = fieldPath;
  }
}
