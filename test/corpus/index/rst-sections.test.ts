import { describe, expect, test } from 'bun:test';
import { findRstHeadings } from '../../../src/corpus/index/rst-sections.ts';
import { chunkFile } from '../../../src/corpus/index/chunk-file.ts';

const DOC = ['=====', 'Guide', '=====', '', 'Intro.', '', '.. _install:', '', 'Install', '-------', '', 'Run it.', '', 'Details', '~~~~~~~', '', 'More.', '', 'Usage', '-----', 'Use it.'].join('\n');

describe('findRstHeadings()', () => {
  test('levels follow the order the adornment styles first appear; an overline is its own style', () => {
    expect(findRstHeadings(DOC.split('\n')).map(({ level, text }) => [level, text])).toEqual([
      [0, 'Guide'],
      [1, 'Install'],
      [2, 'Details'],
      [1, 'Usage'],
    ]);
  });

  test('an underline shorter than its title or a title inside a paragraph is not a heading', () => {
    expect(findRstHeadings(['Long title here', '---', '', 'para line', 'next line', '---------'])).toEqual([]);
  });
});

describe('chunkFile() with reStructuredText', () => {
  test('splits at titles with trails and the anchors of .. _name: targets', () => {
    expect(chunkFile({ relativePath: 'guide.rst', text: DOC, mtimeMs: 0 }).map((chunk) => [chunk.uri, chunk.title])).toEqual(
      [
        ['guide.rst#guide', 'Guide'],
        ['guide.rst#guide', 'Guide'],
        ['guide.rst#install', 'Guide › Install'],
        ['guide.rst#details', 'Guide › Install › Details'],
        ['guide.rst#usage', 'Guide › Usage'],
      ].filter((entry, index) => index !== 1),
    );
  });
});
