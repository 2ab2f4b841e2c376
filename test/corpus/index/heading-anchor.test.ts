import { describe, expect, test } from 'bun:test';
import { HeadingAnchors } from '../../../src/corpus/index/heading-anchor.ts';

describe('HeadingAnchors', () => {
  test('next() lower-cases, drops punctuation and turns spaces into hyphens like GitHub', () => {
    const anchors = new HeadingAnchors();
    expect(anchors.next('Getting Started!')).toBe('getting-started');
    expect(anchors.next('`parseArgs()` options')).toBe('parseargs-options');
    expect(anchors.next('snake_case and kebab-case')).toBe('snake_case-and-kebab-case');
    expect(anchors.next('Überblick')).toBe('überblick');
  });

  test('next() numbers repeated headings -1, -2 and never hands out an anchor twice', () => {
    const anchors = new HeadingAnchors();
    expect(['Usage', 'Usage', 'Usage-1', 'Usage'].map((text) => anchors.next(text))).toEqual(['usage', 'usage-1', 'usage-1-1', 'usage-2']);
  });

  test('next() gives a heading of only punctuation the anchor "section"', () => {
    const anchors = new HeadingAnchors();
    expect(anchors.next('!!!')).toBe('section');
    expect(anchors.next('')).toBe('section-1');
  });
});
