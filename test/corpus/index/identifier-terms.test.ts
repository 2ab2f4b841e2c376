import { describe, expect, test } from 'bun:test';
import { identifierTerms, MAX_IDENTIFIER_PARTS, pathTerms } from '../../../src/corpus/index/identifier-terms.ts';

describe('identifierTerms()', () => {
  test('splits camelCase and PascalCase identifiers once each, acronyms and digits apart', () => {
    expect(identifierTerms('Call renderExternalContext, then HTTPServer and utf8Decode; renderExternalContext again.')).toBe('render External Context HTTP Server utf 8 Decode');
  });

  test('leaves plain words, snake_case and kebab-case out (unicode61 splits those)', () => {
    expect(identifierTerms('plain words snake_case kebab-case UPPER')).toBe('');
  });

  test('keeps at most MAX_IDENTIFIER_PARTS parts', () => {
    const text = Array.from({ length: 300 }, (_, index) => `fooBar${String.fromCharCode(97 + (index % 26))}${index}`).join(' ');
    expect(identifierTerms(text).split(' ')).toHaveLength(MAX_IDENTIFIER_PARTS);
  });
});

describe('pathTerms()', () => {
  test('drops the extension only', () => {
    expect(pathTerms('git-doc/git-stash.txt')).toBe('git-doc/git-stash');
    expect(pathTerms('docs/v1.2/README')).toBe('docs/v1.2/README');
  });
});
