import { describe, expect, test } from 'bun:test';
import { chunkFile } from '../../../src/corpus/index/chunk-file.ts';

const MTIME_MS = Date.UTC(2024, 4, 6, 7, 8, 9, 10);

describe('chunkFile()', () => {
  test('gives Markdown chunks ids of path, anchor and ordinal, heading-trail titles and anchored uris', () => {
    const chunks = chunkFile({ relativePath: 'docs/guide.md', text: 'Intro.\n# Install\nRun it.\n## Options\nA.\n\n' + 'b'.repeat(999), mtimeMs: MTIME_MS });
    expect(chunks).toEqual([
      { id: 'docs/guide.md:1', title: 'guide.md', uri: 'docs/guide.md', content: 'Intro.', updated_at: '2024-05-06T07:08:09.010Z' },
      { id: 'docs/guide.md#install:1', title: 'Install', uri: 'docs/guide.md#install', content: 'Run it.', updated_at: '2024-05-06T07:08:09.010Z' },
      { id: 'docs/guide.md#options:1', title: 'Install › Options', uri: 'docs/guide.md#options', content: 'A.', updated_at: '2024-05-06T07:08:09.010Z' },
      { id: 'docs/guide.md#options:2', title: 'Install › Options', uri: 'docs/guide.md#options', content: 'b'.repeat(999), updated_at: '2024-05-06T07:08:09.010Z' },
    ]);
  });

  test("splits Sphinx's .rst.txt sources at reStructuredText section titles, as .rst; the previous chunking does not", () => {
    const text = 'Title\n=====\n\nIntro.\n\nPart\n----\n\nBody.\n';
    const current = chunkFile({ relativePath: '_sources/page.rst.txt', text, mtimeMs: MTIME_MS }).map((chunk) => [chunk.id, chunk.title, chunk.content]);
    expect(current).toEqual([
      ['_sources/page.rst.txt#title:1', 'Title', 'Intro.'],
      ['_sources/page.rst.txt#part:1', 'Title › Part', 'Body.'],
    ]);
    expect(chunkFile({ relativePath: '_sources/PAGE.RST.TXT', text, mtimeMs: MTIME_MS }).length).toBe(2);
    expect(chunkFile({ relativePath: '_sources/page.rst.txt', text, mtimeMs: MTIME_MS }, 'previous').map((chunk) => chunk.id)).toEqual(['_sources/page.rst.txt:1']);
  });

  test('splits other text files at paragraphs only', () => {
    const chunks = chunkFile({ relativePath: 'notes.txt', text: '# not a heading\n\ntext', mtimeMs: MTIME_MS });
    expect(chunks.map((chunk) => [chunk.id, chunk.title, chunk.content])).toEqual([['notes.txt:1', 'notes.txt', '# not a heading\n\ntext']]);
  });

  test('percent-encodes # ? % and spaces in the path so the uri stays a relative reference', () => {
    const [chunk] = chunkFile({ relativePath: 'a dir/C#?100%.MD', text: '# Top\nx', mtimeMs: MTIME_MS });
    expect(chunk?.uri).toBe('a%20dir/C%23%3F100%25.MD#top');
    expect(chunk?.id).toBe('a%20dir/C%23%3F100%25.MD#top:1');
  });

  test('gives the same ids for the same input and unique ids for repeated headings', () => {
    const file = { relativePath: 'r.md', text: '# A\nx\n# A\ny\n# A\nz', mtimeMs: MTIME_MS };
    const ids = chunkFile(file).map((chunk) => chunk.id);
    expect(ids).toEqual(['r.md#a:1', 'r.md#a-1:1', 'r.md#a-2:1']);
    expect(chunkFile(file).map((chunk) => chunk.id)).toEqual(ids);
  });
});
