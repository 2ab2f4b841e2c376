// `external-context eval` (docs/design/eval.md): flags and exit codes in-process through the
// dispatch table against the strict Generic fake; the figures against the real `corpus serve`
// executable run by the real executable; canaries on every output.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { help } from '../../src/cli/eval.ts';
import { run } from '../../src/cli/dispatch.ts';
import { createTempConfigDir, genericConfig } from '../config/temp-config.ts';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { jsonReply } from '../fakes/reply.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { runInMemory } from '../support/memory-io.ts';
import { exePath, requireBuilt } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';

const TOKEN_VAR = 'CONTEXT_TOKEN';
const temp = createTempConfigDir('ec-eval-');
let generic: GenericHttpFake;
let broken: FakeServer;

const ITEMS = [
  { id: 'docs/a.md#one:1', content: `first ${CANARY.body}`, uri: 'docs/a.md#one', title: 'A' },
  { id: 'docs/b.md:1', content: `second ${CANARY.body}`, uri: 'docs/b.md' },
  { id: 'docs/c.md:1', content: 'third' },
];

beforeAll(async () => {
  generic = await startGenericHttpFake({ token: CANARY.credential, items: ITEMS });
  broken = await startFakeServer({ handler: () => jsonReply(500, { error: CANARY.body }) });
});

afterAll(async () => {
  await Promise.all([generic.close(), broken.close()]);
  temp.remove();
});

function config(baseUrl: string): string {
  return temp.write(genericConfig({ provider: { type: 'generic-http-search-v1', baseUrl, tokenEnv: TOKEN_VAR } }));
}

function evalRun(args: string[], options: { stderrIsTty?: boolean } = {}) {
  return runInMemory(run, ['eval', ...args], { cwd: temp.dir, env: { [TOKEN_VAR]: CANARY.credential }, ...options });
}

function questions(lines: readonly unknown[], name = 'questions.jsonl'): string {
  return temp.write(lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'), name);
}

// Relevant at rank 1, rank 2 (by uri), nowhere.
const THREE = [
  { query: `first ${CANARY.query}`, relevant: ['docs/a.md'] },
  { query: 'second question', relevant: ['docs/b.md', 'docs/zzz.md'] },
  { query: 'third question', relevant: ['docs/none.md'] },
];

describe('eval --help and usage errors', () => {
  test('prints its help on stdout with exit 0', async () => {
    const result = await evalRun(['--help']);
    expect(result).toEqual({ code: 0, stdout: help, stderr: '' });
    for (const heading of ['USAGE', 'OPTIONS', 'ENVIRONMENT', 'EXIT CODES', 'EXAMPLES']) expect(help).toContain(`\n${heading}\n`);
  });

  test('a missing --questions, a bad --k or --min-mrr, an unknown flag: one stderr line, exit 2', async () => {
    const file = questions(THREE);
    const cases: [string[], string][] = [
      [[], 'Option --questions needs a JSON Lines file or a BEIR folder.'],
      [['--questions', file, '--k', '6'], 'Option --k needs a whole number from 1 to 5.'],
      [['--questions', file, '--k', '2.5'], 'Option --k needs a whole number from 1 to 5.'],
      [['--questions', file, '--min-mrr', '1.5'], 'Option --min-mrr needs a number from 0 to 1.'],
      [['--questions', file, '--min-mrr', 'abc'], 'Option --min-mrr needs a number from 0 to 1.'],
    ];
    for (const [args, line] of cases) {
      expect(await evalRun(['--config', config(generic.origin), ...args])).toEqual({ code: 2, stdout: '', stderr: `[external-context] ${line} Run "external-context eval --help".\n` });
    }
    const unknown = await evalRun(['--questions', file, '--force']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')).toHaveLength(2);
  });
});

describe('eval against the strict Generic fake', () => {
  test('prints MRR@k, nDCG@k, Recall@k, Hit@1, the no-item share and latency; never a query, item or credential', async () => {
    const result = await evalRun(['--config', config(generic.origin), '--questions', questions(THREE)]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'Questions   3 (k = 5)',
      // (1 + 1/2 + 0) / 3
      'MRR@5       0.500',
      // (1 + (1/log2 3)/(1 + 1/log2 3) + 0) / 3
      `nDCG@5      ${((1 + 1 / Math.log2(3) / (1 + 1 / Math.log2(3))) / 3).toFixed(3)}`,
      // (1 + 1/2 + 0) / 3
      'Recall@5    0.500',
      'Hit@1       0.333',
      'No item     0.000',
    ]);
    expect(lines[6]).toMatch(/^Latency {5}p50 [\d.]+ ms, p95 [\d.]+ ms$/);
    expect(lines[7]).toBe('Failed      0');
    expect(lines[8]).toBe('');
    expect(generic.requests.slice(-3).map((request) => request.json)).toEqual(THREE.map((question) => ({ query: question.query, limit: 5 })));
    expectNoCanary(result.stdout + result.stderr);
  });

  test('--json prints one object; --k 1 cuts MRR and Recall; --min-mrr above it exits 1', async () => {
    const result = await evalRun(['--config', config(generic.origin), '--questions', questions(THREE), '--json', '--k', '1', '--min-mrr', '0.5']);
    expect(result.code).toBe(1);
    const data = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['questions', 'k', 'mrr', 'ndcg', 'recall', 'hit1', 'noItems', 'latencyMs', 'failed', 'skipped', 'minMrr', 'passed', 'perQuestion']);
    // nDCG@1: only the first question's relevant item is at rank 1.
    expect(data).toMatchObject({ questions: 3, k: 1, mrr: 1 / 3, ndcg: 1 / 3, recall: 1 / 3, hit1: 1 / 3, noItems: 0, failed: 0, skipped: 0, minMrr: 0.5, passed: false });
    // The rank is over every returned item, whatever --k: the second question's item is at rank 2.
    expect(data['perQuestion']).toEqual([
      { line: 1, query: THREE[0]?.query, rank: 1, failed: false },
      { line: 2, query: 'second question', rank: 2, failed: false },
      { line: 3, query: 'third question', rank: null, failed: false },
    ]);
    expect(result.stderr).toBe('[external-context] MRR@1 0.333 is below --min-mrr 0.5.\n');
    const met = await evalRun(['--config', config(generic.origin), '--questions', questions(THREE), '--min-mrr', '0.5']);
    expect(met.code).toBe(0);
    expect(met.stdout).toContain('MRR@5       0.500  (--min-mrr 0.5: met)\n');
  });

  test('--verbose lists every question with the rank of its first relevant item, its line and its query, escaped; never an item', async () => {
    const file = questions([...THREE.slice(1), { query: 'evil \u001b[31m question', relevant: ['docs/c.md'] }]);
    const result = await evalRun(['--config', config(generic.origin), '--questions', file, '--verbose']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').slice(8)).toEqual([
      '',
      'Rank of the first relevant item, per question:',
      '  2       line 1  second question',
      '  none    line 2  third question',
      '  3       line 3  evil \\u001b[31m question',
      '',
    ]);
    expectNoCanary(result.stdout);
    const failing = await evalRun(['--config', config(broken.origin), '--questions', file, '--verbose']);
    expect(failing.stdout).toContain('\n  failed  line 2  third question\n');
    expectNoCanary(failing.stdout + failing.stderr);
  });

  test('an empty answer counts as a question with no item', async () => {
    generic.setItems([]);
    try {
      const result = await evalRun(['--config', config(generic.origin), '--questions', questions(THREE), '--json']);
      expect(JSON.parse(result.stdout)).toMatchObject({ mrr: 0, noItems: 1, failed: 0 });
      expect(result.code).toBe(0);
    } finally {
      generic.setItems(ITEMS);
    }
  });

  test('a failing provider: the operator line once, a count, exit 1, and no upstream body or credential', async () => {
    const result = await evalRun(['--config', config(broken.origin), '--questions', questions(THREE)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Failed      3\n');
    expect(result.stdout).toContain('No item     1.000\n');
    expect(result.stderr).toBe('external-context: context_search failed: http-status 500\n' + '[external-context] 3 of 3 searches failed; the figures count them as questions with no item.\n');
    expectNoCanary(result.stdout + result.stderr);
  });

  test('progress goes to stderr only on a terminal', async () => {
    const result = await evalRun(['--config', config(generic.origin), '--questions', questions(THREE)], { stderrIsTty: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('[external-context] Evaluating: 3/3 questions');
    expectNoCanary(result.stderr);
  });

  test('a configuration that does not load exits 1 with its line, before any search', async () => {
    const before = generic.requests.length;
    const result = await runInMemory(run, ['eval', '--config', config(generic.origin), '--questions', questions(THREE)], { cwd: temp.dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('[external-context] Configured external context credential is unavailable. Field: provider.tokenEnv.\n');
    expect(generic.requests.length).toBe(before);
  });
});

describe('eval questions files', () => {
  test('a bad line exits 1 naming the file and line number, with no search made', async () => {
    const before = generic.requests.length;
    const cases: [unknown[], string][] = [
      [[THREE[0], '{"query": "x", ', THREE[1]], 'bad.jsonl line 2: not valid JSON.'],
      [[THREE[0], '', { query: '  ', relevant: ['a'] }], 'bad.jsonl line 3: "query" must be a non-blank string.'],
      [[{ query: 'q', relevant: [] }], 'bad.jsonl line 1: "relevant" must be a list of 1 to 100 non-empty id or uri prefixes.'],
      [[{ query: 'q', relevant: ['a'], extra: CANARY.body }], 'bad.jsonl line 1: a question has only "query" and "relevant"; remove the other key.'],
      [['[1]'], 'bad.jsonl line 1: a question must be a JSON object with "query" and "relevant".'],
      [[''], 'bad.jsonl: the file holds no question.'],
    ];
    for (const [lines, message] of cases) {
      const result = await evalRun(['--config', config(generic.origin), '--questions', questions(lines, 'bad.jsonl')]);
      expect(result).toEqual({ code: 1, stdout: '', stderr: `[external-context] ${message}\n` });
    }
    const missing = await evalRun(['--config', config(generic.origin), '--questions', 'no-such.jsonl']);
    expect(missing).toEqual({ code: 1, stdout: '', stderr: '[external-context] The questions path no-such.jsonl does not exist or cannot be read.\n' });
    const binary = await evalRun(['--config', config(generic.origin), '--questions', temp.write(new Uint8Array([0xff, 0xfe, 0x00]), 'binary.jsonl')]);
    expect(binary.stderr).toBe('[external-context] binary.jsonl is not valid UTF-8.\n');
    expect(generic.requests.length).toBe(before);
  });

  test('the BEIR layout: queries.jsonl and qrels/test.tsv, a header line, score 0 ignored, a query with only score 0 skipped and counted', async () => {
    const folder = temp.mkdir('beir');
    mkdirSync(join(folder, 'qrels'));
    writeFileSync(join(folder, 'queries.jsonl'), ['{"_id":"q1","text":"first","metadata":{}}', '{"_id":"q2","text":"second"}', '{"_id":"q3","text":"unjudged"}'].join('\n'));
    writeFileSync(join(folder, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\tdocs/a.md\t1\nq2\tdocs/c.md\t1\nq2\tdocs/a.md\t0\nq3\tdocs/b.md\t0\n');
    writeFileSync(join(folder, 'qrels', 'train.tsv'), 'q1\tdocs/zzz\t1\n');
    const result = await evalRun(['--config', config(generic.origin), '--questions', folder, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('[external-context] 1 query has no relevant document (no score above 0 in qrels/test.tsv) and was skipped.\n');
    const data = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(data).toMatchObject({ questions: 2, skipped: 1, mrr: (1 + 1 / 3) / 2, hit1: 0.5 });
    expect(data['perQuestion']).toEqual([
      { id: 'q1', query: 'first', rank: 1, failed: false },
      { id: 'q2', query: 'second', rank: 3, failed: false },
    ]);
    writeFileSync(join(folder, 'qrels', 'test.tsv'), 'q1\tdocs/a.md\t1\nq2\tdocs/a.md\t0\nq3\tdocs/b.md\t0\n');
    const text = await evalRun(['--config', config(generic.origin), '--questions', folder]);
    expect(text.stderr).toBe('[external-context] 2 queries have no relevant document (no score above 0 in qrels/test.tsv) and were skipped.\n');
    expect(text.stdout).toStartWith('Questions   1 (k = 5), 2 skipped (no relevant document)\n');
    writeFileSync(join(folder, 'qrels', 'test.tsv'), 'q1\tdocs/a.md\t1\nq9\tdocs/a.md\t1\n');
    expect((await evalRun(['--config', config(generic.origin), '--questions', folder])).stderr).toBe('[external-context] qrels/test.tsv line 2: query id is not in queries.jsonl.\n');
    writeFileSync(join(folder, 'qrels', 'test.tsv'), 'q1 docs/a.md 1\n');
    expect((await evalRun(['--config', config(generic.origin), '--questions', folder])).stderr).toBe(
      '[external-context] qrels/test.tsv line 1: expected query-id, corpus-id and an integer score separated by tabs.\n',
    );
  });
});

describe('eval on the executable against the real corpus serve executable', () => {
  test('scores a corpus index through the reference service', async () => {
    const exe = requireBuilt(exePath());
    const docs = temp.mkdir('corpus/docs');
    writeFileSync(join(docs, 'install.md'), '# Install\n\nDownload the release archive and unpack the widget.\n\n## Upgrade\n\nReplace the binary.\n');
    writeFileSync(join(docs, 'config.md'), '# Configuration\n\nThe widget reads its settings from a JSON file.\n');
    const index = join(temp.dir, 'corpus.sqlite');
    const built = await runProcess(exe, ['corpus', 'index', 'docs', '--out', index], { cwd: join(temp.dir, 'corpus') });
    expect(built.code).toBe(0);
    const child = spawn(exe, ['corpus', 'serve', '--db', index, '--token-env', TOKEN_VAR, '--listen', '127.0.0.1:0'], {
      env: { PATH: process.env['PATH'] ?? '', [TOKEN_VAR]: CANARY.credential },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += String(chunk);
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
        });
        child.once('exit', () => reject(new Error('corpus serve exited early')));
      });
      const file = questions([
        { query: 'unpack the release archive', relevant: ['docs/install.md'] },
        { query: 'JSON settings file', relevant: ['docs/config.md'] },
        { query: 'replace the binary', relevant: ['docs/install.md#upgrade'] },
      ]);
      const result = await runProcess(exe, ['eval', '--config', config(url), '--questions', file, '--json'], { env: { PATH: process.env['PATH'] ?? '', [TOKEN_VAR]: CANARY.credential } });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ questions: 3, mrr: 1, hit1: 1, recall: 1, noItems: 0, failed: 0 });
      expectNoCanary(result.stdout + result.stderr);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
