// Which JavaScript runtime is executing: the one place that looks at runtime globals
// (docs/design/style.md, "Runtime-neutral code"). Per-runtime modules are loaded with import() by name.

/** The three supported runtimes. */
export type RuntimeName = 'bun' | 'deno' | 'node';

/** Detects the runtime by feature check, without naming `Bun` or `Deno` as identifiers. */
export function detectRuntime(): RuntimeName {
  const global = globalThis as Record<string, unknown>;
  if (typeof global['Bun'] === 'object' && global['Bun'] !== null) return 'bun';
  if (typeof global['Deno'] === 'object' && global['Deno'] !== null) return 'deno';
  return 'node';
}

/** The runtime name fixed at first use. */
export const RUNTIME: RuntimeName = detectRuntime();

/** Node.js version as [major, minor, patch]; [0, 0, 0] elsewhere. */
export function nodeVersion(): [number, number, number] {
  if (RUNTIME !== 'node') return [0, 0, 0];
  const parts = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node?.split('.') ?? [];
  return [Number(parts[0] ?? 0), Number(parts[1] ?? 0), Number(parts[2] ?? 0)];
}
