// The one environment read of src/: an own-property lookup, so inherited names such as `__proto__`
// or `toString` are never found through the prototype (docs/design/config.md §2, §7.1). Imports nothing from src/.

/** An environment as passed in: the process's, a test's, or a launch plan's. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Reads one environment variable.
 *
 * @param env The environment; never `process.env` read here, it always comes in as a parameter.
 * @param name The variable name, case-sensitive.
 * @returns The value when `env` has `name` as an own property holding a string (possibly
 *   empty), else undefined.
 * @see docs/design/config.md §2, §7.1
 */
export function ownEnv(env: Environment, name: string): string | undefined {
  if (!Object.hasOwn(env, name)) return undefined;
  const value: unknown = env[name];
  return typeof value === 'string' ? value : undefined;
}
