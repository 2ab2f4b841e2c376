// One text file → its corpus chunks with stable ids, heading-trail titles, uris and
// modification times (docs/design/providers.md §8.1).
import type { CorpusRanking } from '../corpus-ranking.ts';
import { chunkText } from './chunk-text.ts';
import { findAsciidocHeadings } from './asciidoc-sections.ts';
import { sectionsFromHeadings } from './heading-sections.ts';
import { splitMarkdownSections, type MarkdownSection } from './markdown-sections.ts';
import { findRstHeadings } from './rst-sections.ts';

/** One searchable record, as stored in the index and returned by the service. */
export interface Chunk {
  /** `<uri>:<ordinal>`: the relative path, heading anchor and 1-based ordinal within the section. */
  readonly id: string;
  /** The heading trail joined with ` › `; the file name when the text precedes every heading. */
  readonly title: string;
  /** The percent-encoded relative path, plus `#<anchor>` inside a heading section. */
  readonly uri: string;
  /** At most 1000 code points of text. */
  readonly content: string;
  /** The file's modification time in RFC 3339 (UTC, milliseconds). */
  readonly updated_at: string;
}

/** A file ready to be chunked. */
export interface TextFile {
  /** Path relative to the indexing root, with `/` separators. */
  readonly relativePath: string;
  /** The decoded text with `\n` line ends. */
  readonly text: string;
  /** Modification time in ms since the epoch. */
  readonly mtimeMs: number;
}

const MARKDOWN_EXTENSION = /\.(?:md|markdown|mdx)$/i;
const PREVIOUS_MARKDOWN_EXTENSION = /\.(?:md|markdown)$/i;
const ASCIIDOC_EXTENSION = /\.(?:adoc|asciidoc)$/i;
// Sphinx publishes each page's source as `_sources/<page>.rst.txt` (python-pytest-doc, …).
const RST_EXTENSION = /\.rst(?:\.txt)?$/i;
const TEXT_EXTENSION = /\.txt$/i;
/** Fewest AsciiDoc titles that make a `.txt` file AsciiDoc: one title could be a stray underline. */
const MIN_TXT_ASCIIDOC_TITLES = 2;
const TITLE_SEPARATOR = ' › ';

/**
 * Splits one file into chunks: Markdown (`.md`, `.markdown`, `.mdx`), AsciiDoc (`.adoc`,
 * `.asciidoc`, and `.txt` with at least two AsciiDoc titles) and reStructuredText (`.rst`, and Sphinx's `.rst.txt` sources) at
 * headings and then paragraphs, any other text at paragraphs only.
 *
 * @param file The file's relative path, text and modification time.
 * @param ranking `previous`: the chunking before issue 28 §3 (for `npm run eval` only).
 * @returns Chunks in file order; the same file always gives the same ids.
 * @see docs/design/providers.md §8.1
 */
export function chunkFile(file: TextFile, ranking: CorpusRanking = 'current'): Chunk[] {
  const sections = ranking === 'current' ? splitSections(file) : splitPreviousSections(file);
  const path = encodePath(file.relativePath);
  const fileName = file.relativePath.slice(file.relativePath.lastIndexOf('/') + 1);
  const updatedAt = new Date(file.mtimeMs).toISOString();
  const chunks: Chunk[] = [];
  for (const section of sections) {
    const uri = section.anchor === '' ? path : `${path}#${section.anchor}`;
    // Decision: text before the first heading has no trail; the file name is a better title than none.
    const title = section.trail.length > 0 ? section.trail.join(TITLE_SEPARATOR) : fileName;
    chunkText(section.body).forEach((content, index) => {
      chunks.push({ id: `${uri}:${index + 1}`, title, uri, content, updated_at: updatedAt });
    });
  }
  return chunks;
}

function splitSections(file: TextFile): MarkdownSection[] {
  const path = file.relativePath;
  if (MARKDOWN_EXTENSION.test(path)) return splitMarkdownSections(file.text);
  const whole = [{ anchor: '', trail: [], body: file.text }];
  if (RST_EXTENSION.test(path)) return sectionsFromHeadings(file.text.split('\n'), findRstHeadings(file.text.split('\n')));
  if (!ASCIIDOC_EXTENSION.test(path) && !TEXT_EXTENSION.test(path)) return whole;
  const lines = file.text.split('\n');
  const headings = findAsciidocHeadings(lines);
  if (TEXT_EXTENSION.test(path) && headings.length < MIN_TXT_ASCIIDOC_TITLES) return whole;
  return sectionsFromHeadings(lines, headings);
}

// Before issue 28 §3: only `.md` and `.markdown` had sections (for `npm run eval` only).
function splitPreviousSections(file: TextFile): MarkdownSection[] {
  return PREVIOUS_MARKDOWN_EXTENSION.test(file.relativePath) ? splitMarkdownSections(file.text) : [{ anchor: '', trail: [], body: file.text }];
}

// A relative URI reference: `#` and `?` in file names must not read as fragment or query.
function encodePath(relativePath: string): string {
  return encodeURI(relativePath).replace(/#/g, '%23').replace(/\?/g, '%3F');
}
