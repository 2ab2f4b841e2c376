// ConfigError: the configuration cannot bind this process (docs/design/config.md §2–§9, §12).

/** A configuration failure. `message` is the exact spec text; it never holds a secret or value. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** Dotted field path (`provider.endpoint.origin`), `config` for the root, or undefined. */
  readonly fieldPath: string | undefined;

  constructor(message: string, fieldPath?: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.fieldPath = fieldPath;
  }
}
