// The Hook path never loads the MCP SDK or mcp/ (style.md, "Imports follow the flow";
// spec README, "Dependencies"): checked on the import graph of the sources and on a real
// Bun bundle of the `hook` command module.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

const SRC = path.join(REPO_ROOT, 'src');
// Static `import … from '…'`, `export … from '…'`, side-effect `import '…'` and dynamic `import('…')`.
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Every module reachable from `entries` (absolute paths of src files, and bare specifiers). */
function reachable(entries: readonly string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) {
        const target = path.resolve(path.dirname(file), specifier);
        if (target.endsWith('.ts')) queue.push(target);
      } else {
        packages.add(specifier);
      }
    }
  }
  return { files, packages };
}

const HOOK_ENTRIES = [
  path.join(SRC, 'cli', 'hook.ts'),
  ...readdirSync(path.join(SRC, 'hooks'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(SRC, 'hooks', name)),
];

describe('the Hook module graph', () => {
  test('src/cli/hook.ts and src/hooks/* reach no mcp/ module and no @modelcontextprotocol package', () => {
    const { files, packages } = reachable(HOOK_ENTRIES);
    expect(files.size).toBeGreaterThan(HOOK_ENTRIES.length);
    const relative = [...files].map((file) => path.relative(SRC, file));
    expect(relative.filter((file) => file.startsWith(`mcp${path.sep}`))).toEqual([]);
    expect([...packages].filter((name) => name.startsWith('@modelcontextprotocol'))).toEqual([]);
    // Surfaces never import each other: hooks/ reaches no cli/, gateway/ or corpus/ module.
    const hooksOnly = reachable(HOOK_ENTRIES.slice(1));
    const surfaces = [...hooksOnly.files].map((file) => path.relative(SRC, file)).filter((file) => /^(cli|mcp|gateway|corpus)[\\/]/.test(file));
    expect(surfaces).toEqual([]);
  });

  test('a Bun bundle of the hook command contains no MCP SDK code', async () => {
    const result = await Bun.build({ entrypoints: [path.join(SRC, 'cli', 'hook.ts')], target: 'bun', format: 'esm' });
    expect(result.success).toBe(true);
    const text = (await Promise.all(result.outputs.map((output) => output.text()))).join('\n');
    expect(text).toContain('auto-recall');
    expect(text).not.toContain('@modelcontextprotocol');
    expect(text).not.toContain('modelcontextprotocol');
    expect(text).not.toContain('StdioServerTransport');
    expect(text).not.toContain('jsonrpc');
    expect(text).not.toContain('src/mcp/');
  });
});
