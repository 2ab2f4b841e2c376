// The Markdown helpers the documentation tests rely on: GitHub's heading anchors, links outside
// code only, and fenced blocks with their info string.
import { afterAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fencedBlocks, headingSlug, markdownAnchors, markdownLinks, testedBlocks } from './markdown.ts';
import { makeTempDir, removeTempDirs } from './temp-dir.ts';

afterAll(removeTempDirs);

async function sample(text: string): Promise<string> {
  const dir = await makeTempDir('ec-markdown-');
  const file = join(dir.path, 'sample.md');
  writeFileSync(file, text);
  return file;
}

describe('headingSlug()', () => {
  test('lowercases, drops punctuation and code marks, and turns spaces into hyphens as GitHub does', () => {
    expect(headingSlug('Choosing a profile')).toBe('choosing-a-profile');
    expect(headingSlug('`provider` with `"type": "mem0"`')).toBe('provider-with-type-mem0');
    expect(headingSlug('Proxies and private CAs, per runtime')).toBe('proxies-and-private-cas-per-runtime');
    expect(headingSlug('8.3 Schema (launch profile version 1)')).toBe('83-schema-launch-profile-version-1');
  });
});

describe('markdownAnchors()', () => {
  test('numbers repeated headings and ignores # lines inside fenced code', async () => {
    const file = await sample('# Title\n\n## Notes\n\n```sh\n# not a heading\n```\n\n## Notes\n');
    expect([...markdownAnchors(file)]).toEqual(['title', 'notes', 'notes-1']);
  });
});

describe('markdownLinks()', () => {
  test('finds inline links in prose and skips those in fenced code and inline code', async () => {
    const file = await sample('See [a](a.md#x) and `[b](b.md)`.\n\n```md\n[c](c.md)\n```\n[d](https://example.com "t")\n');
    expect(markdownLinks(file).map((link) => link.target)).toEqual(['a.md#x', 'https://example.com']);
  });
});

describe('fencedBlocks() and testedBlocks()', () => {
  test('keep the info string, remove the indentation and select only sh title="tested"', async () => {
    const file = await sample('1. Step:\n\n   ```sh title="tested"\n   echo one\n   ```\n\n```sh\necho two\n```\n');
    expect(fencedBlocks(file).map((block) => [block.line, block.info, block.code])).toEqual([
      [3, 'sh title="tested"', 'echo one\n'],
      [7, 'sh', 'echo two\n'],
    ]);
    expect(testedBlocks(file).map((block) => block.code)).toEqual(['echo one\n']);
  });
});
