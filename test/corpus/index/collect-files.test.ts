import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectFiles } from '../../../src/corpus/index/collect-files.ts';
import { CorpusError } from '../../../src/corpus/corpus-error.ts';

const root = mkdtempSync(join(tmpdir(), 'corpus-collect-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const cwd = join(root, 'work');
mkdirSync(join(cwd, 'docs', 'b'), { recursive: true });
mkdirSync(join(root, 'outside'), { recursive: true });
for (const path of ['docs/Z.md', 'docs/a.md', 'docs/b/c.txt', 'docs/_x.md', 'README.md']) writeFileSync(join(cwd, path), path);
writeFileSync(join(root, 'outside', 'o.md'), 'o');
symlinkSync(join(cwd, 'docs'), join(cwd, 'docs', 'b', 'loop'));

describe('collectFiles()', () => {
  test('walks folders recursively in code-unit order with paths relative to cwd, not following links', async () => {
    const { files, duplicates } = await collectFiles(['README.md', 'docs'], cwd);
    expect(files.map((f) => f.relativePath)).toEqual(['README.md', 'docs/Z.md', 'docs/_x.md', 'docs/a.md', 'docs/b/c.txt']);
    expect(files[0]?.path).toBe(join(cwd, 'README.md'));
    expect(duplicates).toEqual([]);
  });

  test('takes paths outside cwd relative to the folder that holds the argument', async () => {
    const { files } = await collectFiles([join(root, 'outside'), '.'], cwd);
    expect(files.map((f) => f.relativePath).slice(0, 2)).toEqual(['outside/o.md', 'README.md']);
  });

  test('gives the same folder different relative paths from different working directories, as corpus index --help says', async () => {
    const absolute = join(cwd, 'docs', 'b');
    expect((await collectFiles([absolute], cwd)).files.map((f) => f.relativePath)).toEqual(['docs/b/c.txt']);
    expect((await collectFiles([absolute], join(root, 'outside'))).files.map((f) => f.relativePath)).toEqual(['b/c.txt']);
    // Run inside the corpus with ".": paths of the corpus alone.
    expect((await collectFiles(['.'], absolute)).files.map((f) => f.relativePath)).toEqual(['c.txt']);
  });

  test('reports a file listed twice once as a duplicate', async () => {
    const { files, duplicates } = await collectFiles(['docs/b', 'docs/b/c.txt'], cwd);
    expect(files.map((f) => f.relativePath)).toEqual(['docs/b/c.txt']);
    expect(duplicates).toEqual(['docs/b/c.txt']);
  });

  test('throws CorpusError input-unreadable naming the argument for a missing path', async () => {
    const error = await collectFiles(['nope'], cwd).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorpusError);
    expect(error).toMatchObject({ kind: 'input-unreadable', path: 'nope' });
  });
});
