// The built question set keeps the shape issue 28 §2 asks for: at least 150 questions, half
// known-item, half paraphrases that share less than half of their content words with the target.
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { registerToolGate } from '../support/tool-tier.ts';
import { contentWords, sharedShare } from './content-words.ts';
import { GIT_DOC_DIR, readQuestionSet, sourcePath } from './question-set.ts';
import { scoreSet } from './score-set.ts';
import { hostToolTier } from '../support/ci-tools.ts';

const questions = readQuestionSet();
const known = questions.filter((question) => question.kind === 'known-item');
const paraphrases = questions.filter((question) => question.kind === 'paraphrase');

// The target words a paraphrase must mostly avoid: the target's title and its file name.
function targetText(question: (typeof questions)[number]): string {
  return `${question.target} ${question.relevant.map((path) => basename(path).replace(/\.[a-z]+$/, '')).join(' ')}`;
}

describe('test/eval/questions.jsonl', () => {
  test('holds at least 150 questions, half known-item and half paraphrase, no query twice', () => {
    expect(questions.length).toBeGreaterThanOrEqual(150);
    expect(known.length + paraphrases.length).toBe(questions.length);
    expect(Math.abs(known.length - paraphrases.length)).toBeLessThanOrEqual(2);
    expect(new Set(questions.map((question) => question.query.toLowerCase())).size).toBe(questions.length);
  });

  test('every paraphrase shares less than half of its content words with its target title and file name', () => {
    const offenders = paraphrases.map((question) => ({ query: question.query, share: sharedShare(question.query, targetText(question)) })).filter((entry) => entry.share >= 0.5);
    expect(offenders).toEqual([]);
    for (const question of paraphrases) expect(contentWords(question.query).size).toBeGreaterThanOrEqual(3);
  });

  test('every docs/ target exists and holds every content word of its known-item query', () => {
    for (const question of questions.filter((entry) => entry.relevant[0]?.startsWith('docs/'))) {
      const text = readFileSync(sourcePath(question.relevant[0] as string), 'utf8');
      if (question.kind === 'known-item') expect([...contentWords(question.query)].filter((word) => !contentWords(text).has(word))).toEqual([]);
    }
  });
});

const gitDoc = hostToolTier('git-doc', 'question set over git-doc');
registerToolGate(gitDoc);
describe.skipIf(gitDoc.missing !== undefined)('test/eval/questions.jsonl over git-doc', () => {
  test('every git-doc target exists and holds every content word of its known-item query', () => {
    for (const question of questions.filter((entry) => entry.relevant[0]?.startsWith('git-doc/'))) {
      const path = sourcePath(question.relevant[0] as string);
      expect(existsSync(path)).toBe(true);
      if (question.kind !== 'known-item') continue;
      const words = contentWords(readFileSync(path, 'utf8'));
      expect({ query: question.query, missing: [...contentWords(question.query)].filter((word) => !words.has(word)) }).toEqual({ query: question.query, missing: [] });
    }
  });
});

describe.skipIf(gitDoc.missing !== undefined)('the corpus ranking on the built set (issue 28 §3 targets)', () => {
  test('paraphrase MRR@5 at least 15% above the previous ranking, known-item no more than 2% below', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ec-eval-targets-'));
    try {
      const previous = (await scoreSet(questions, 'previous', dir)).figures;
      const current = (await scoreSet(questions, 'current', dir)).figures;
      expect(current.paraphrase.mrr).toBeGreaterThanOrEqual(previous.paraphrase.mrr * 1.15);
      expect(current['known-item'].mrr).toBeGreaterThanOrEqual(previous['known-item'].mrr * 0.98);
      expect(current.all.noItems).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
