// Reads the `--questions` path: a JSON Lines file, or a BEIR folder holding queries.jsonl and
// qrels/<split>.tsv (docs/design/eval.md §2). Every file is read under a size limit.
import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { readRegularFile } from '../config/read-regular-file.ts';
import { EvalInputError, type EvalQuestion } from './eval-question.ts';
import { parseBeir, parseQuestionLines } from './parse-questions.ts';

/** The loaded questions; `skipped` counts BEIR queries left out for having no relevant document. */
export interface LoadedQuestions {
  readonly questions: EvalQuestion[];
  readonly skipped: number;
  /** The qrels file's name (`qrels/test.tsv`) of a BEIR folder, for the skipped warning. */
  readonly qrels?: string;
}

/** Largest questions, queries or qrels file, in bytes (32 MiB). */
export const MAX_QUESTIONS_FILE_BYTES = 32 * 1024 * 1024;

/**
 * Loads the questions.
 *
 * @param path The `--questions` value.
 * @param cwd Directory a relative path starts from.
 * @returns The questions (never empty), and for a BEIR folder how many queries were left out.
 * @throws {EvalInputError} When the path cannot be read, a file is too large or not UTF-8, a
 *   BEIR folder lacks its files, or a line is bad (the message names the file and line).
 * @see docs/design/eval.md §2
 */
export async function loadQuestions(path: string, cwd: string): Promise<LoadedQuestions> {
  const full = resolve(cwd, path);
  const info = await stat(full).catch(() => undefined);
  if (info === undefined) throw new EvalInputError(`The questions path ${basename(full)} does not exist or cannot be read.`);
  if (!info.isDirectory()) return { questions: parseQuestionLines(await readText(full), basename(full)), skipped: 0 };
  const qrels = await pickQrels(join(full, 'qrels'));
  const queries = await readText(join(full, 'queries.jsonl'));
  const names = { queries: 'queries.jsonl', qrels: `qrels/${basename(qrels)}` };
  return { ...parseBeir(queries, await readText(qrels), names), qrels: names.qrels };
}

// BEIR ships train/dev/test splits: test.tsv when present, else the only TSV.
async function pickQrels(folder: string): Promise<string> {
  const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.tsv')).sort();
  if (names.includes('test.tsv')) return join(folder, 'test.tsv');
  if (names.length === 1) return join(folder, names[0] as string);
  throw new EvalInputError(
    names.length === 0
      ? 'The BEIR folder has no qrels/*.tsv file; give a folder with queries.jsonl and qrels/test.tsv, or a JSON Lines file.'
      : 'The BEIR folder has several qrels files and no qrels/test.tsv; keep one split.',
  );
}

async function readText(file: string): Promise<string> {
  const name = basename(file);
  let read: Awaited<ReturnType<typeof readRegularFile>>;
  try {
    read = await readRegularFile(file, MAX_QUESTIONS_FILE_BYTES);
  } catch (error) {
    throw new EvalInputError(`The file ${name} does not exist or cannot be read.`, undefined, { cause: error });
  }
  if (read.kind === 'not-a-file') throw new EvalInputError(`${name} is not a regular file.`);
  if (read.kind === 'too-large') throw new EvalInputError(`${name} is larger than 32 MiB; split the set.`);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(read.bytes).replace(/\r\n/g, '\n');
  } catch (error) {
    throw new EvalInputError(`${name} is not valid UTF-8.`, undefined, { cause: error });
  }
}
