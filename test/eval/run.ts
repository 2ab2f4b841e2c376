// `npm run eval`: the built question set (docs/design/eval.md §4) over git-doc and docs/, and the
// held-back set over pytest's manual, each scored for the current corpus ranking beside the
// previous one, in one run. Figures, never pass/fail.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CorpusRanking } from '../../src/corpus/corpus-ranking.ts';
import type { EvalFigures } from '../../src/eval/metrics.ts';
import { BUILT_CORPUS, GIT_DOC_DIR, HELD_BACK_CORPUS, HELD_BACK_FILE, PYTEST_DOC_DIR, readQuestionSet, REPO_ROOT, type SetCorpus, type SetQuestion } from './question-set.ts';
import { scoreSet, type SetFigures } from './score-set.ts';

const RANKINGS: readonly CorpusRanking[] = ['previous', 'current'];

for (const [path, pkg] of [
  [GIT_DOC_DIR, 'git-doc'],
  [PYTEST_DOC_DIR, 'python-pytest-doc'],
]) {
  if (!existsSync(path as string)) {
    process.stderr.write(`${path} is missing: apt-get install -y ${pkg}\n`);
    process.exit(1);
  }
}
const dir = mkdtempSync(join(tmpdir(), 'ec-eval-set-'));
try {
  const built = await scoreBoth('built set (git-doc and docs/)', readQuestionSet(), BUILT_CORPUS);
  const heldBack = await scoreBoth('held-back set (python-pytest-doc)', readQuestionSet(HELD_BACK_FILE), HELD_BACK_CORPUS);
  mkdirSync(join(REPO_ROOT, 'dist'), { recursive: true });
  writeFileSync(join(REPO_ROOT, 'dist', 'eval-results.json'), `${JSON.stringify({ ...Object.fromEntries(built), heldBack: Object.fromEntries(heldBack) }, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function scoreBoth(name: string, questions: readonly SetQuestion[], corpus: SetCorpus): Promise<Map<CorpusRanking, SetFigures>> {
  const results = new Map<CorpusRanking, SetFigures>();
  for (const ranking of RANKINGS) {
    const { summary, figures } = await scoreSet(questions, ranking, dir, corpus);
    results.set(ranking, figures);
    process.stderr.write(`${name}, ${ranking}: ${summary.files} files, ${summary.chunks} chunks\n`);
  }
  process.stdout.write(`== ${name}\n`);
  print(results);
  return results;
}

function print(results: Map<CorpusRanking, SetFigures>): void {
  const previous = results.get('previous') as SetFigures;
  const current = results.get('current') as SetFigures;
  const rows: [string, (figures: EvalFigures) => number, boolean][] = [
    ['MRR@5', (f) => f.mrr, true],
    ['nDCG@5', (f) => f.ndcg, true],
    ['Recall@5', (f) => f.recall, true],
    ['Hit@1', (f) => f.hit1, true],
    ['No item', (f) => f.noItems, true],
    ['p50 ms', (f) => f.latencyMs.p50, false],
    ['p95 ms', (f) => f.latencyMs.p95, false],
  ];
  const lines: string[] = [];
  for (const subset of ['all', 'known-item', 'paraphrase'] as const) {
    const before = previous[subset] as EvalFigures;
    const after = current[subset] as EvalFigures;
    lines.push(`${subset} (${before.questions} questions)`, `  ${'figure'.padEnd(10)}${'previous'.padStart(10)}${'current'.padStart(10)}${'change'.padStart(10)}`);
    for (const [name, pick, share] of rows) {
      const a = pick(before);
      const b = pick(after);
      const change = a === 0 ? (b === 0 ? '0%' : 'new') : `${b >= a ? '+' : ''}${(((b - a) / a) * 100).toFixed(1)}%`;
      const format = (value: number): string => (share ? value.toFixed(3) : value.toFixed(1));
      lines.push(`  ${name.padEnd(10)}${format(a).padStart(10)}${format(b).padStart(10)}${change.padStart(10)}`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
