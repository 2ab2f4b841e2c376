// `external-context eval`: retrieval quality of the configured deployment, one ordinary search per
// question (docs/design/eval.md). The work is in src/eval/; this file parses flags and prints.
import { ConfigError } from '../config/config-error.ts';
import { EvalInputError } from '../eval/eval-question.ts';
import { type LoadedQuestions, loadQuestions } from '../eval/load-questions.ts';
import { questionResults, renderQuestions, skippedLine } from '../eval/question-results.ts';
import type { EvalFigures } from '../eval/metrics.ts';
import { runEval } from '../eval/run-eval.ts';
import { searchQuestion } from '../eval/search-question.ts';
import { missingPermission, permissionMessage } from '../runtime/permissions.ts';
import { openBinding } from '../search/open-binding.ts';
import { versionLine } from '../version.ts';
import { extractConfigFlag } from './config-flag.ts';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.ts';
import { printHelp, wantsHelp } from './help.ts';
import { type Io, writeErr, writeError, writeOut } from './io.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';

/** `eval --help`. */
export const help = `${versionLine()}
Measure retrieval quality: run each question as one ordinary read-only context_search through
the configured provider (the same limits, timeout and proxy rules as serve) and print MRR@k,
nDCG@k, Recall@k, Hit@1, the share of questions with no item and the p50/p95 latency.

USAGE
  external-context eval [--config <abs path>] --questions <file|folder> [--k <n>] [--json]
      [--verbose] [--min-mrr <x>]

OPTIONS
  --config <abs path>        Configuration file (default: $QWEN_EXTERNAL_CONTEXT_CONFIG).
  --questions <path>         A JSON Lines file, one {"query": "...", "relevant": ["<prefix>", ...]}
                             per line: an item is relevant when its id or uri starts with a
                             prefix. Or a BEIR folder: queries.jsonl and qrels/test.tsv (or its
                             only qrels/*.tsv). At most 10,000 questions, 32 MiB per file.
  --k <n>                    Cut-off of MRR, nDCG and Recall, 1 to 5 items (default: 5; a
                             search returns at most 5 items).
  --json                     Print one JSON object instead of lines, with a "perQuestion"
                             list: each question's query and the rank of its first relevant
                             item. (default: lines)
  --verbose                  After the figures, list every question: the rank of its first
                             relevant item (or none, or failed), its line or BEIR id, and its
                             query, to find the questions the deployment misses.
  --min-mrr <x>              Exit 1 when MRR@k is below x, a number from 0 to 1.
                             (default: no threshold)
  -h, --help                 Show this help.

  Questions run one at a time, in file order. Progress goes to stderr only when it is a
  terminal. A failed search counts as a question with no item and its operator line (the
  failure class, never a body) goes to stderr. BEIR queries whose qrels give no document a
  score above 0 are skipped, with one warning on stderr that counts them.
  Only --verbose and --json show queries (your own questions file); never an item or a body.

ENVIRONMENT
  QWEN_EXTERNAL_CONTEXT_CONFIG   Absolute configuration path when --config is not given.
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   Proxy for the provider (loopback is never proxied).
  The credential variable named in the configuration must be set; it is never printed.

EXIT CODES
  0  every search answered and MRR@k is at least --min-mrr (when given)
  1  MRR@k is below --min-mrr, a search failed, the configuration did not load, or the
     questions cannot be used (the line of stderr names the file and line number)
  2  usage error (unknown flag, stray argument, a missing or bad value)

EXAMPLES
  external-context eval --config /etc/external-context/search.json --questions questions.jsonl
  external-context eval --config /etc/external-context/search.json --questions beir/scifact \\
      --k 5 --json
  external-context eval --config /etc/external-context/search.json --questions questions.jsonl \\
      --min-mrr 0.6
  external-context eval --config /etc/external-context/search.json --questions questions.jsonl \\
      --verbose
`;

const OPTIONS = {
  questions: { type: 'string' },
  k: { type: 'string', default: '5' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  'min-mrr': { type: 'string' },
} as const;

/** Generic text of a load failure that is not a configuration error (docs/design/config.md §11). */
const STARTUP_FAILED = 'External context startup failed.';

/**
 * Runs `eval`.
 *
 * @param args Arguments after `eval`.
 * @param io Streams and environment.
 * @returns 0 when every search answered and the threshold (if any) is met; 1 otherwise.
 * @throws {UsageError} On an unknown flag, a stray argument or a bad --questions, --k or --min-mrr.
 * @see docs/design/eval.md §1
 */
export async function run(args: string[], io: Io): Promise<number> {
  if (wantsHelp(args)) return printHelp(io, help);
  const { rest, config } = extractConfigFlag(args);
  const { values } = parseFlags(rest, OPTIONS, 'eval');
  const questionsPath = values['questions'];
  if (typeof questionsPath !== 'string' || questionsPath === '') throw new UsageError('Option --questions needs a JSON Lines file or a BEIR folder.', 'eval');
  const k = /^[1-5]$/.test(values['k']) ? Number(values['k']) : undefined;
  if (k === undefined) throw new UsageError('Option --k needs a whole number from 1 to 5.', 'eval');
  const minMrr = parseShare(values['min-mrr']);
  if (minMrr === null) throw new UsageError('Option --min-mrr needs a number from 0 to 1.', 'eval');

  const missing = await missingPermission([{ name: 'read' }, { name: 'env' }, { name: 'net' }]);
  if (missing !== undefined) {
    writeError(io, permissionMessage(missing));
    return EXIT_FAILURE;
  }
  let opened: Awaited<ReturnType<typeof openBinding>>;
  let loaded: LoadedQuestions;
  try {
    loaded = await loadQuestions(questionsPath, io.cwd);
    opened = await openBinding(config, io.env);
  } catch (error) {
    // Configuration and questions errors name a field or a file line, never a value.
    writeError(io, error instanceof ConfigError || error instanceof EvalInputError ? error.message : STARTUP_FAILED);
    return EXIT_FAILURE;
  }
  const progress = io.stderrIsTty ? (done: number, total: number) => writeErr(io, `\r\u001b[2K[external-context] Evaluating: ${done}/${total} questions`) : undefined;
  const result = await runEval(loaded.questions, (query) => searchQuestion(opened, query), k, progress);
  if (progress !== undefined) writeErr(io, '\r\u001b[2K');
  for (const line of result.failureLines) writeErr(io, `${line}\n`);
  if (loaded.skipped > 0) writeError(io, skippedLine(loaded.skipped, loaded.qrels ?? 'the qrels file'));
  const passed = minMrr === undefined || result.figures.mrr >= minMrr;
  const listing = questionResults(loaded.questions, result);
  if (values['json'] === true) {
    const data = { ...result.figures, failed: result.failed, skipped: loaded.skipped, ...(minMrr === undefined ? {} : { minMrr, passed }), perQuestion: listing };
    writeOut(io, `${JSON.stringify(data)}\n`);
  } else {
    writeOut(io, renderFigures(result.figures, result.failed, minMrr, passed, loaded.skipped));
    if (values['verbose'] === true) writeOut(io, renderQuestions(listing));
  }
  if (result.failed > 0) writeError(io, `${result.failed} of ${loaded.questions.length} searches failed; the figures count them as questions with no item.`);
  else if (!passed) writeError(io, `MRR@${k} ${fixed(result.figures.mrr)} is below --min-mrr ${minMrr}.`);
  return result.failed === 0 && passed ? EXIT_OK : EXIT_FAILURE;
}

// undefined: not given; null: not a number in [0, 1].
function parseShare(value: string | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  if (!/^(?:0|1|0?\.\d+|1\.0*|0\.\d*)$/.test(value)) return null;
  const share = Number(value);
  return share >= 0 && share <= 1 ? share : null;
}

function fixed(value: number): string {
  return value.toFixed(3);
}

/** The figures as aligned lines. */
function renderFigures(figures: EvalFigures, failed: number, minMrr: number | undefined, passed: boolean, skipped: number): string {
  const k = figures.k;
  const lines = [
    `Questions   ${figures.questions} (k = ${k})${skipped > 0 ? `, ${skipped} skipped (no relevant document)` : ''}`,
    `MRR@${k}       ${fixed(figures.mrr)}${minMrr === undefined ? '' : `  (--min-mrr ${minMrr}: ${passed ? 'met' : 'not met'})`}`,
    `nDCG@${k}      ${fixed(figures.ndcg)}`,
    `Recall@${k}    ${fixed(figures.recall)}`,
    `Hit@1       ${fixed(figures.hit1)}`,
    `No item     ${fixed(figures.noItems)}`,
    `Latency     p50 ${figures.latencyMs.p50} ms, p95 ${figures.latencyMs.p95} ms`,
    `Failed      ${failed}`,
  ];
  return lines.map((line) => `${line}\n`).join('');
}
