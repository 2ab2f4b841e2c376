// The two question formats of `eval`: JSON Lines of {"query", "relevant"} and the BEIR layout
// (queries.jsonl plus a qrels TSV), each checked line by line (docs/design/eval.md §2).
import { checkQuery, EvalInputError, type EvalQuestion, toQuestion } from './eval-question.ts';

/** Most questions one run takes. */
export const MAX_QUESTIONS = 10_000;

/**
 * Parses a JSON Lines questions file: one `{"query": "...", "relevant": ["..."]}` per line;
 * blank lines are skipped.
 *
 * @param text The file's text.
 * @param name The file name used in messages.
 * @returns The questions in file order; never empty.
 * @throws {EvalInputError} On a line that is not JSON or not a question (with its line number),
 *   on more than 10,000 questions, or on a file without any.
 */
export function parseQuestionLines(text: string, name: string): EvalQuestion[] {
  const questions: EvalQuestion[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    const line = index + 1;
    const where = `${name} line ${line}`;
    questions.push(toQuestion(parseLine(raw, where, line), where, line));
    if (questions.length > MAX_QUESTIONS) throw new EvalInputError(`${name}: more than ${MAX_QUESTIONS} questions; split the file.`, line);
  }
  if (questions.length === 0) throw new EvalInputError(`${name}: the file holds no question.`);
  return questions;
}

/** The questions of a BEIR folder and how many judged queries were left out. */
export interface BeirQuestions {
  readonly questions: EvalQuestion[];
  /** Queries of the qrels file with no corpus id scored above 0: left out, and counted so the operator is told. */
  readonly skipped: number;
}

/**
 * Parses the BEIR layout: `queries.jsonl` (`{"_id", "text", …}` per line, other keys ignored)
 * and one qrels TSV (`query-id<TAB>corpus-id<TAB>score`, an optional header line). A corpus id
 * with a score above 0 is relevant; queries of the qrels file without one are left out, as BEIR
 * does, and counted.
 *
 * @param queriesText The text of queries.jsonl.
 * @param qrelsText The text of the qrels file.
 * @param names The two file names used in messages.
 * @returns Questions in qrels order of first appearance (never empty), and the count left out.
 * @throws {EvalInputError} On a bad line (with its number), a qrels query id missing from
 *   queries.jsonl, more than 10,000 questions, or no question at all.
 */
export function parseBeir(queriesText: string, qrelsText: string, names: { readonly queries: string; readonly qrels: string }): BeirQuestions {
  const queries = new Map<string, string>();
  for (const [index, raw] of queriesText.split('\n').entries()) {
    if (raw.trim() === '') continue;
    const line = index + 1;
    const where = `${names.queries} line ${line}`;
    const value = parseLine(raw, where, line) as Record<string, unknown> | null;
    const id = value?.['_id'];
    if (typeof id !== 'string' || id === '') throw new EvalInputError(`${where}: a query needs a string "_id".`, line);
    queries.set(id, checkQuery(value?.['text'], where, line));
  }
  const relevant = new Map<string, string[]>();
  const judged = new Set<string>();
  for (const [index, raw] of qrelsText.split('\n').entries()) {
    const line = index + 1;
    const fields = raw.replace(/\r$/, '').split('\t');
    if (raw.trim() === '' || (line === 1 && fields[0] === 'query-id')) continue;
    const where = `${names.qrels} line ${line}`;
    const [queryId, corpusId, score] = fields;
    if (fields.length !== 3 || !queryId || !corpusId || !/^-?\d+$/.test(score ?? '')) {
      throw new EvalInputError(`${where}: expected query-id, corpus-id and an integer score separated by tabs.`, line);
    }
    if (!queries.has(queryId)) throw new EvalInputError(`${where}: query id is not in ${names.queries}.`, line);
    judged.add(queryId);
    if (Number(score) <= 0) continue;
    const list = relevant.get(queryId) ?? [];
    if (!list.includes(corpusId)) list.push(corpusId);
    relevant.set(queryId, list);
    if (relevant.size > MAX_QUESTIONS) throw new EvalInputError(`${names.qrels}: more than ${MAX_QUESTIONS} questions; split the set.`, line);
  }
  if (relevant.size === 0) throw new EvalInputError(`${names.qrels}: no query has a relevant document (score above 0).`);
  const questions = [...relevant].map(([id, list]) => ({ query: queries.get(id) as string, relevant: list, from: { id } }));
  return { questions, skipped: judged.size - relevant.size };
}

function parseLine(raw: string, where: string, line: number): unknown {
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new EvalInputError(`${where}: not valid JSON.`, line, { cause: error });
  }
}
