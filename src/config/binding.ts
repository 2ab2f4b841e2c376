// The validated, typed result of loading a configuration: what one process is bound to.
// Produced only by config/load.ts; consumed by providers/ and the surfaces. Its parts are the types
// schema.ts infers from the valibot schemas (docs/design/style.md, "Types and schemas live together").
import type { ValidatedConfig } from './validate.ts';

/**
 * A loaded configuration with its credential resolved; `autoRecall.repositoryRoot` is the
 * canonical (symlink-resolved) repository root.
 */
export interface Binding extends ValidatedConfig {
  /** The resolved credential value. Never printed, logged or put in a message. */
  readonly credential: string;
  /** The configuration path as the operator gave it (flag or variable). */
  readonly configPath: string;
}
