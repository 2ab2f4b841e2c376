// The tool list of a binding: context_search, then context_remember in the write variant
// (docs/design/profile-v1.md §1, docs/design/write.md §1).
import type { Writable } from 'node:stream';
import type { Binding } from '../config/binding.ts';
import type { BoundProvider } from '../providers/types.ts';
import { createContextRememberTool } from './context-remember.ts';
import { createContextSearchTool } from './context-search.ts';
import type { Tool } from './tool.ts';

/**
 * Builds the tools for a version 1 binding.
 *
 * @param stderr Destination of operator lines.
 * @returns `[context_search]`, or `[context_search, context_remember]` when writes are enabled.
 */
export function createTools(binding: Binding, provider: BoundProvider, stderr: Writable): Tool[] {
  const tools: Tool[] = [createContextSearchTool(provider, binding.timeoutMs, stderr)];
  // docs/design/write.md §1: only a version 1 binding with `write: {enabled: true}` and a writer.
  if (binding.version === 1 && binding.writeEnabled && provider.remember !== undefined) {
    tools.push(createContextRememberTool(provider.remember.bind(provider), binding.timeoutMs, stderr));
  }
  return tools;
}
