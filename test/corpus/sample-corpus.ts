// Test helper: small hand-made corpora and the real one (the Markdown files of the installed
// node_modules packages), each indexed into a temporary folder with the product's indexer.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildIndex, type BuildIndexSummary, type SkipReason } from '../../src/corpus/index/build-index.ts';

/** A temporary folder with an index built from it. */
export interface IndexedCorpus {
  /** The temporary folder (input files under `docs/`, the index at `index.sqlite`). */
  readonly dir: string;
  readonly dbPath: string;
  readonly summary: BuildIndexSummary;
  readonly skips: [string, SkipReason][];
  remove(): void;
}

/** Markdown files about fruit and tools, for ranking and field checks. */
export const SAMPLE_FILES: Readonly<Record<string, string>> = {
  'docs/fruit.md': [
    '# Fruit',
    'Fruit is sweet.',
    '## Apples',
    'Apples are crunchy apples. Apples grow on apple trees; apples everywhere.',
    '## Pears',
    'Pears are soft and sometimes mentioned next to an apple.',
  ].join('\n'),
  'docs/tools.md': '# Tools\n\nA hammer drives nails.\n\n## Saws\n\nA saw cuts wood.',
  'notes.txt': 'Plain text about kiwis.\n\nSecond paragraph about bananas.',
};

/** Writes `files` into a new temporary folder and indexes it (folder argument `.`). */
export async function indexSample(files: Readonly<Record<string, string | Uint8Array>> = SAMPLE_FILES): Promise<IndexedCorpus> {
  const dir = mkdtempSync(join(tmpdir(), 'corpus-sample-'));
  const input = join(dir, 'input');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(input, path, '..'), { recursive: true });
    writeFileSync(join(input, path), content);
  }
  return index(dir, ['.'], input);
}

/** Every `.md`/`.markdown` file under node_modules (sorted), as paths relative to `root`. */
export function nodeModulesMarkdown(root: string): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && /\.(?:md|markdown)$/i.test(entry.name)) found.push(relative(root, path));
    }
  };
  walk(join(root, 'node_modules'));
  return found.sort();
}

/** Indexes the Markdown files of the installed node_modules packages into a temporary folder. */
export async function indexNodeModulesMarkdown(root: string): Promise<IndexedCorpus> {
  const dir = mkdtempSync(join(tmpdir(), 'corpus-real-'));
  return index(dir, nodeModulesMarkdown(root), root);
}

async function index(dir: string, paths: string[], cwd: string): Promise<IndexedCorpus> {
  const dbPath = join(dir, 'index.sqlite');
  const skips: [string, SkipReason][] = [];
  const summary = await buildIndex(paths, dbPath, cwd, {
    onSkip: (path, reason) => skips.push([path, reason]),
    onProgress: () => {},
  });
  return { dir, dbPath, summary, skips, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
