// CorpusError: an input path, index file or output file the corpus commands cannot use.

/** What went wrong, for the CLI's message table. */
export type CorpusErrorKind =
  /** An input path given to `corpus index` does not exist or cannot be read. */
  | 'input-unreadable'
  /** The `--out` file cannot be written or renamed into place. */
  | 'output-unwritable'
  /** The `--out` file is an input file (itself or through links) or lies inside an input folder. */
  | 'output-is-input'
  /** The `--out` file exists and is not an index made by `corpus index`; it is left unchanged. */
  | 'output-not-index'
  /** The `--db` file cannot be opened, or is not an index made by `corpus index`. */
  | 'index-unreadable';

/** A corpus file problem; `path` is the operator's own path argument, never a secret. */
export class CorpusError extends Error {
  override readonly name = 'CorpusError';
  readonly kind: CorpusErrorKind;
  /** The path as given on the command line. */
  readonly path: string;

  constructor(kind: CorpusErrorKind, path: string, options: { cause?: unknown } = {}) {
    super(`Corpus ${kind}.`, options);
    this.kind = kind;
    this.path = path;
  }
}
