// Every specification reference in src/ (`docs/design/<file>.md §N`) names a file that is in the
// repository and a section that file has, so a maintainer finds each cited rule (docs issue,
// item docs/design/).
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

const DESIGN = join(REPO_ROOT, 'docs', 'design');
const SPEC_NAME = /(?<![\w/.-])(config|examples|frontend-mcp|hooks|mem0-services|probe|profile-v1|providers|qwen-client|remote|style|write)\.md\b/;
const REFERENCE = /docs\/design\/([a-z0-9-]+\.md)((?:[,;]?\s*§\s*[0-9]+(?:\.[0-9]+)*)*)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Section numbers a design file defines: `## 5. Title` gives 5, `### 7.1 Title` gives 7.1. */
function sectionsOf(file: string): Set<string> {
  const numbers = new Set<string>();
  for (const line of readFileSync(join(DESIGN, file), 'utf8').split('\n')) {
    const match = /^#{2,6}\s+(?:§\s*)?([0-9]+(?:\.[0-9]+)*)\.?\s/.exec(line);
    if (match?.[1] !== undefined) numbers.add(match[1]);
  }
  return numbers;
}

describe('docs/design/ references in src/', () => {
  const files = sourceFiles(join(REPO_ROOT, 'src'));

  test('the twelve specification files and style.md are in the repository', () => {
    for (const name of ['README', 'config', 'examples', 'frontend-mcp', 'hooks', 'mem0-services', 'probe', 'profile-v1', 'providers', 'qwen-client', 'remote', 'write', 'style']) {
      expect(existsSync(join(DESIGN, `${name}.md`))).toBe(true);
    }
  });

  test('every reference names a file and a section that exist', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      for (const match of text.matchAll(REFERENCE)) {
        const file = match[1] ?? '';
        const where = `${relative(REPO_ROOT, path)}: ${match[0]}`;
        if (!existsSync(join(DESIGN, file))) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        const sections = sectionsOf(file);
        for (const number of (match[2] ?? '').matchAll(/[0-9]+(?:\.[0-9]+)*/g)) {
          checked += 1;
          if (!sections.has(number[0])) broken.push(`${where} (no section ${number[0]})`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  test('no bare specification file name is left without its docs/design/ folder', () => {
    const bare = files.flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => SPEC_NAME.test(line) && !line.includes('not the text of profile-v1.md'))
        .map((line) => `${relative(REPO_ROOT, path)}: ${line.trim()}`),
    );
    expect(bare).toEqual([]);
  });
});
