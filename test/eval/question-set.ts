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

/** One line of the set. */
export interface SetQuestion {
  readonly query: string;
  /** Relative paths as `corpus index` names them: `git-doc/<file>` or `docs/<file>`. */
  readonly relevant: readonly string[];
  readonly kind: 'known-item' | 'paraphrase';
  /** The target's heading or title line, the text a paraphrase must mostly avoid. */
  readonly target: string;
}

/** Reads the set. */
export function readQuestionSet(): SetQuestion[] {
  return readFileSync(QUESTIONS_FILE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SetQuestion);
}

/** Where a relevant path lives on this machine. */
export function sourcePath(relevant: string): string {
  return relevant.startsWith('git-doc/') ? join(GIT_DOC_DIR, relevant.slice('git-doc/'.length)) : join(REPO_ROOT, relevant);
}
