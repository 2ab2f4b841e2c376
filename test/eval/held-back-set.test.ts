// The held-back question set (issue 28 §3) over pytest's manual, documentation none of us wrote:
// its shape, and its targets present where python-pytest-doc is installed. `npm run eval` prints
// its figures beside the built set's.
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { hostToolTier } from '../support/ci-tools.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { contentWords, sharedShare } from './content-words.ts';
import { HELD_BACK_FILE, readQuestionSet, type SetQuestion, sourcePath } from './question-set.ts';

const questions = readQuestionSet(HELD_BACK_FILE);
const paraphrases = questions.filter((question) => question.kind === 'paraphrase');

// The target words a paraphrase must mostly avoid: the target's title and its file name.
function targetText(question: SetQuestion): string {
  return `${question.target} ${question.relevant.map((path) => basename(path).replace(/(\.rst)?\.txt$/, '')).join(' ')}`;
}

describe('test/eval/held-back-questions.jsonl', () => {
  test('holds at least 40 questions, half known-item and half paraphrase, no query twice, every target under _sources/', () => {
    expect(questions.length).toBeGreaterThanOrEqual(40);
    expect(paraphrases.length * 2).toBe(questions.length);
    expect(new Set(questions.map((question) => question.query.toLowerCase())).size).toBe(questions.length);
    for (const question of questions) for (const path of question.relevant) expect(path).toMatch(/^_sources\/[a-z/_-]+\.rst\.txt$/);
  });

  test('every paraphrase shares less than half of its content words with its target title and file name', () => {
    const offenders = paraphrases.map((question) => ({ query: question.query, share: sharedShare(question.query, targetText(question)) })).filter((entry) => entry.share >= 0.5);
    expect(offenders).toEqual([]);
    for (const question of paraphrases) expect(contentWords(question.query).size).toBeGreaterThanOrEqual(3);
  });
});

const pytestDoc = hostToolTier('pytest-doc', 'held-back question set over python-pytest-doc');
registerToolGate(pytestDoc);
describe.skipIf(pytestDoc.missing !== undefined)('test/eval/held-back-questions.jsonl over python-pytest-doc', () => {
  test('every target exists and holds every content word of its known-item query', () => {
    for (const question of questions) {
      for (const path of question.relevant) expect({ path, exists: existsSync(sourcePath(path)) }).toEqual({ path, exists: true });
      if (question.kind !== 'known-item') continue;
      const words = contentWords(readFileSync(sourcePath(question.relevant[0] as string), 'utf8'));
      expect({ query: question.query, missing: [...contentWords(question.query)].filter((word) => !words.has(word)) }).toEqual({ query: question.query, missing: [] });
    }
  });
});
