import { describe, expect, test } from 'bun:test';
import { splitMarkdownSections } from '../../../src/corpus/index/markdown-sections.ts';

describe('splitMarkdownSections()', () => {
  test('starts a section at each ATX heading and keeps the heading trail', () => {
    const sections = splitMarkdownSections('intro\n# Top\na\n## Sub ##\nb\n### Deep\nc\n## Other\nd');
    expect(sections).toEqual([
      { anchor: '', trail: [], body: 'intro' },
      { anchor: 'top', trail: ['Top'], body: 'a' },
      { anchor: 'sub', trail: ['Top', 'Sub'], body: 'b' },
      { anchor: 'deep', trail: ['Top', 'Sub', 'Deep'], body: 'c' },
      { anchor: 'other', trail: ['Top', 'Other'], body: 'd' },
    ]);
  });

  test('recognises setext headings but not a rule under a multi-line paragraph', () => {
    const sections = splitMarkdownSections('Title\n=====\ntext\n\nSub\n---\nmore\nlines\n---\nend');
    expect(sections.map((s) => s.trail)).toEqual([[], ['Title'], ['Title', 'Sub']]);
    expect(sections[2]?.body).toBe('more\nlines\n---\nend');
  });

  test('ignores # lines inside fenced code blocks', () => {
    const sections = splitMarkdownSections('# A\n```sh\n# comment\n```\n~~~\n## not\n~~~\n# B');
    expect(sections.map((s) => s.anchor)).toEqual(['', 'a', 'b']);
    expect(sections[1]?.body).toBe('```sh\n# comment\n```\n~~~\n## not\n~~~');
  });

  test('keeps YAML front matter as preamble text instead of reading it as a setext heading', () => {
    const sections = splitMarkdownSections('---\ntitle: x\n---\n# Real');
    expect(sections[0]).toEqual({ anchor: '', trail: [], body: '---\ntitle: x\n---' });
    expect(sections[1]?.trail).toEqual(['Real']);
  });

  test('turns links and images in headings into their text and drops HTML tags', () => {
    const sections = splitMarkdownSections('# [Docs](https://x.test) <img src="a.png"> ![logo](l.png)');
    expect(sections[1]?.trail).toEqual(['Docs  logo']);
    expect(sections[1]?.anchor).toBe('docs--logo');
  });

  test('does not take "#tag" or a 4-space indented "# x" for a heading', () => {
    expect(splitMarkdownSections('#tag\n    # code')).toHaveLength(1);
  });
});
