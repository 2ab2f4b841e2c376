// Every `external-context …` command line in a shell block of the guides (tested or not) names
// a command that exists and only flags that command's --help lists, so an untested block
// cannot drift from the code (docs issue: "verify every command, flag and file path").
import { describe, expect, test } from 'bun:test';
import { join, relative } from 'node:path';
import { helpText } from '../../build/reference.ts';
import { fencedBlocks, markdownFiles } from '../support/markdown.ts';
import { REPO_ROOT } from '../support/paths.ts';

/** Commands whose second word is a sub-command with its own help. */
const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  hook: ['auto-recall', 'write-confirmation', 'settings'],
  gateway: ['discover', 'call'],
  corpus: ['index', 'serve'],
};

interface CommandLine {
  readonly where: string;
  readonly words: string[];
  readonly flags: string[];
}

/** `external-context` as a program name: bare, or the last segment of a path, then a word. */
const INVOCATION = /(?:^|[\s/'"(])external-context(?:\.exe)?\s+(.*)$/;

function commandLines(): CommandLine[] {
  const guides = markdownFiles(REPO_ROOT).filter((file) => !file.startsWith(join(REPO_ROOT, 'docs', 'design')));
  const lines: CommandLine[] = [];
  for (const file of guides) {
    for (const block of fencedBlocks(file).filter((b) => b.info === 'sh' || b.info.startsWith('sh '))) {
      // Join continuation lines, then look at each shell command separately.
      const logical = block.code.replace(/\\\n\s*/g, ' ').split('\n');
      logical.forEach((text, index) => {
        for (const part of text.split(/\s(?:&&|\|\||\||;|&)\s|\s&$|\s>\s?\S+/)) {
          const match = INVOCATION.exec(part);
          if (match?.[1] === undefined) continue;
          const tokens = match[1].split(/\s+/).filter((token) => token !== '');
          const words: string[] = [];
          const first = tokens[0];
          if (first !== undefined && /^[a-z][a-z-]*$/.test(first)) {
            words.push(first);
            const second = tokens[1];
            if (second !== undefined && SUBCOMMANDS[first]?.includes(second)) words.push(second);
          }
          const flags = tokens.filter((token) => /^--[a-z][a-z-]*/.test(token)).map((token) => token.replace(/=.*$/, ''));
          lines.push({ where: `${relative(REPO_ROOT, file)}:${block.line + index + 1}`, words, flags });
        }
      });
    }
  }
  return lines;
}

describe('external-context command lines in the guides', () => {
  const lines = commandLines();

  test('the guides contain command lines to check', () => {
    expect(lines.length).toBeGreaterThan(20);
  });

  test('every command exists and every flag is one its --help lists', async () => {
    const problems: string[] = [];
    for (const line of lines) {
      let help: string;
      try {
        help = await helpText(line.words);
      } catch {
        problems.push(`${line.where}: no command "${line.words.join(' ')}"`);
        continue;
      }
      for (const flag of line.flags) {
        if (!new RegExp(`${flag}(?![a-z-])`).test(help)) problems.push(`${line.where}: "${line.words.join(' ')}" has no ${flag}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
