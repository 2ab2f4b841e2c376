// splitCommand(): the --command splitting rules of remote.md §2.1.
import { describe, expect, test } from 'bun:test';
import { splitCommand } from '../../src/conformance/split-command.ts';

const words = (line: string): readonly string[] => {
  const split = splitCommand(line);
  if (!split.ok) throw new Error('unexpected unterminated quote');
  return split.words;
};

describe('splitCommand()', () => {
  test('splits at runs of JS whitespace outside quotes', () => {
    expect(words('  node   dist/main.js\t--x\n y  ')).toEqual(['node', 'dist/main.js', '--x', 'y']);
    expect(words('a\u00a0b\u3000c')).toEqual(['a', 'b', 'c']);
    expect(words('')).toEqual([]);
    expect(words(' \t ')).toEqual([]);
  });

  test('quotes group whitespace and are removed; the other kind is ordinary inside', () => {
    expect(words(`serve --config "/a b/c.json"`)).toEqual(['serve', '--config', '/a b/c.json']);
    expect(words(`'it"s' "it's"`)).toEqual(['it"s', "it's"]);
  });

  test('touching quoted and unquoted parts form one word; "" alone is an empty word', () => {
    expect(words('--config="/a b/c.json"')).toEqual(['--config=/a b/c.json']);
    expect(words(`a"b c"'d e'f`)).toEqual(['ab cd ef']);
    expect(words(`x "" y ''`)).toEqual(['x', '', 'y', '']);
  });

  test('backslashes are ordinary characters, inside quotes too', () => {
    expect(words('C:\\Program Files\\x.exe "C:\\a b\\" c\\"d"')).toEqual(['C:\\Program', 'Files\\x.exe', 'C:\\a b\\', 'c\\d']);
  });

  test('shell characters are plain text', () => {
    expect(words('echo a; rm -rf $HOME | cat > out *')).toEqual(['echo', 'a;', 'rm', '-rf', '$HOME', '|', 'cat', '>', 'out', '*']);
  });

  test('an unterminated quote is reported', () => {
    expect(splitCommand('node "dist/main.js')).toEqual({ ok: false, reason: 'unterminated-quote' });
    expect(splitCommand("'")).toEqual({ ok: false, reason: 'unterminated-quote' });
  });
});
