// Which item `uri` reaches the model (profile-v1.md §5.3, step 2.2): http(s) URLs and relative
// references stay; every other scheme, and anything a URL parser would fold into one, is dropped.
import { describe, expect, test } from 'bun:test';
import { boundItems } from '../../src/contract/bound.ts';
import { isSafeUri } from '../../src/contract/safe-uri.ts';

describe('isSafeUri()', () => {
  test('keeps http and https URLs in any case, and relative references as corpus produces them', () => {
    for (const uri of [
      'https://context.example.com/policies/1',
      'HTTP://example.com',
      'http://127.0.0.1:8080/a?b#c',
      'docs/guide.md#setup',
      '/abs/path',
      '?q=1',
      '#frag',
      '../up.md',
      '部署.md',
      '🙂🙂',
    ]) {
      expect(isSafeUri(uri)).toBe(true);
    }
  });

  test('drops every other scheme, http without a host, network-path references and parser-folded forms', () => {
    for (const uri of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      // A hostile tester's finds: trimmed space separators and a character reference for the colon.
      '\u00a0javascript:alert(1)',
      '\u3000javascript:alert(1)',
      'javascript&colon;alert(1)',
      'data:text/html,<b>x</b>',
      'file:///etc/passwd',
      'vbscript:msgbox',
      'mailto:a@example.com',
      'ftp://example.com/x',
      'https:example.com',
      'http:/x',
      '//evil.example/x',
      ' javascript:alert(1)',
      'java\nscript:alert(1)',
      'java\tscript:alert(1)',
      '\u0000javascript:x',
      'https://exa mple.com',
      '\\\\evil\\share',
      'x:y',
      'https://example.com/\u202etxt.exe',
      'docs/\u{E0041}.md',
    ]) {
      expect(isSafeUri(uri)).toBe(false);
    }
  });

  test('drops an http(s) URL with userinfo, and keeps an @ after the authority (hostile test)', () => {
    for (const uri of ['https://docs.example.com@evil.example/login', 'https://user:s3cret@host.example/x', 'http://@host', 'HTTPS://a:b@c']) {
      expect(isSafeUri(uri)).toBe(false);
    }
    for (const uri of ['https://example.com/@user', 'https://example.com?mail=a@b.example', 'https://example.com#a@b', 'https://example.com:8443']) {
      expect(isSafeUri(uri)).toBe(true);
    }
  });

  test('boundItems drops an unsafe uri and keeps the item and its other fields', () => {
    const items = boundItems([{ id: 'a', content: 'c', title: 't', uri: 'javascript:alert(1)', score: 1 }]);
    expect(items).toEqual([{ id: 'a', content: 'c', title: 't', score: 1 }]);
  });
});
