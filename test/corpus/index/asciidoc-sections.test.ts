import { describe, expect, test } from 'bun:test';
import { findAsciidocHeadings } from '../../../src/corpus/index/asciidoc-sections.ts';
import { chunkFile } from '../../../src/corpus/index/chunk-file.ts';

const MAN_PAGE = [
  'git-stash(1)',
  '============',
  '',
  'NAME',
  '----',
  'git-stash - Stash the changes in a dirty working directory away',
  '',
  'EXAMPLES',
  '--------',
  '',
  'Pulling into a dirty tree::',
  '',
  '----------------------------------------------------------------',
  '$ git pull',
  '----------------------------------------------------------------',
  '',
  '[[config]]',
  'Configuration',
  '~~~~~~~~~~~~~',
  'stash.showStat is read.',
  '',
  '=== One-line title ===',
  'Body.',
].join('\n');

describe('findAsciidocHeadings()', () => {
  test('finds two-line titles by underline and one-line titles, with levels and [[id]] anchors', () => {
    expect(findAsciidocHeadings(MAN_PAGE.split('\n')).map(({ level, text, anchor }) => ({ level, text, anchor }))).toEqual([
      { level: 0, text: 'git-stash(1)', anchor: undefined },
      { level: 1, text: 'NAME', anchor: undefined },
      { level: 1, text: 'EXAMPLES', anchor: undefined },
      { level: 2, text: 'Configuration', anchor: 'config' },
      { level: 2, text: 'One-line title', anchor: undefined },
    ]);
  });

  test('never reads a title inside a delimited block, nor an underline of another length', () => {
    const lines = ['Intro', '', '----', 'Code line', '---------', '----', '', 'Short', '-----------', ''];
    expect(findAsciidocHeadings(lines)).toEqual([]);
  });
});

describe('chunkFile() with AsciiDoc', () => {
  test('a .txt man page is split at its titles with heading trails and anchors', () => {
    const chunks = chunkFile({ relativePath: 'git-doc/git-stash.txt', text: MAN_PAGE, mtimeMs: 0 });
    expect(chunks.map((chunk) => [chunk.uri, chunk.title])).toEqual([
      ['git-doc/git-stash.txt#name', 'git-stash(1) › NAME'],
      ['git-doc/git-stash.txt#examples', 'git-stash(1) › EXAMPLES'],
      ['git-doc/git-stash.txt#config', 'git-stash(1) › EXAMPLES › Configuration'],
      ['git-doc/git-stash.txt#one-line-title', 'git-stash(1) › EXAMPLES › One-line title'],
    ]);
  });

  test('a .txt file with fewer than two titles stays plain text; previous chunking ignores AsciiDoc', () => {
    const note = { relativePath: 'notes.txt', text: 'Heading\n-------\n\nOne line.', mtimeMs: 0 };
    expect(chunkFile(note).map((chunk) => chunk.uri)).toEqual(['notes.txt']);
    expect(chunkFile({ relativePath: 'a.txt', text: MAN_PAGE, mtimeMs: 0 }, 'previous').every((chunk) => chunk.uri === 'a.txt')).toBe(true);
    expect(chunkFile({ relativePath: 'a.adoc', text: '= Doc\n\n== Part\n\nText.', mtimeMs: 0 }).map((chunk) => chunk.title)).toEqual(['Doc › Part']);
  });

  test('.mdx is split like Markdown', () => {
    expect(chunkFile({ relativePath: 'page.mdx', text: "import X from './x'\n\n# Page\n\n## Usage\n\n<X />", mtimeMs: 0 }).map((chunk) => chunk.uri)).toEqual(['page.mdx', 'page.mdx#usage']);
  });
});
