// The built question set of test/eval/questions.jsonl (docs/design/eval.md §4): where its corpus
// lives and how its lines read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where Debian's git-doc package puts the AsciiDoc sources the set asks about. */
export const GIT_DOC_DIR = '/usr/share/doc/git-doc';

/** The repository root (its docs/ is the other half of the corpus). */
export const REPO_ROOT = join(import.meta.dir, '..', '..');

/** The question file. */
export const QUESTIONS_FILE = join(import.meta.dir, 'questions.jsonl');

/**
 * Where Debian's python-pytest-doc package puts the reStructuredText sources of pytest's manual
 * (`*.rst.txt`), the corpus of the held-back set: documentation none of us wrote.
 */
export const PYTEST_DOC_DIR = '/usr/share/doc/python-pytest-doc/html/_sources';

/** The held-back question file: relevant paths `_sources/<file>` under PYTEST_DOC_DIR. */
export const HELD_BACK_FILE = join(import.meta.dir, 'held-back-questions.jsonl');

/** What one set indexes: folders (relative to REPO_ROOT or absolute) and the file globs kept. */
export interface SetCorpus {
  readonly inputs: readonly string[];
  readonly include: readonly string[];
}

/** The built set's corpus: git-doc and this repository's docs/. */
export const BUILT_CORPUS: SetCorpus = { inputs: [GIT_DOC_DIR, 'docs'], include: ['*.txt', '*.md'] };

/** The held-back set's corpus: pytest's manual. */
export const HELD_BACK_CORPUS: SetCorpus = { inputs: [PYTEST_DOC_DIR], include: ['*.txt'] };

/** One line of the set. */
export interface SetQuestion {
  readonly query: string;
  /** Relative paths as `corpus index` names them: `git-doc/<file>` or `docs/<file>`. */
  readonly relevant: readonly string[];
  readonly kind: 'known-item' | 'paraphrase';
  /** The target's heading or title line, the text a paraphrase must mostly avoid. */
  readonly target: string;
}

/** Reads a set (default: the built one). */
export function readQuestionSet(file: string = QUESTIONS_FILE): SetQuestion[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SetQuestion);
}

/** Where a relevant path lives on this machine. */
export function sourcePath(relevant: string): string {
  if (relevant.startsWith('git-doc/')) return join(GIT_DOC_DIR, relevant.slice('git-doc/'.length));
  if (relevant.startsWith('_sources/')) return join(PYTEST_DOC_DIR, relevant.slice('_sources/'.length));
  return join(REPO_ROOT, relevant);
}
