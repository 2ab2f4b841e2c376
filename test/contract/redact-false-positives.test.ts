// `redactSecrets` (config.md §4.3) from the side of precision: over the 1000-code-point chunks
// (the corpus chunker, providers.md §8.1) of this repository's documentation and of git's
// manual from the Debian package `git-doc` (/usr/share/doc/git-doc, *.txt), at most 0.5% of
// chunks may contain a redaction. The test prints the measured rates. Without `git-doc` the
// git half is skipped with a reason, and fails under CI=true (apt-get install -y git-doc).
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactText } from '../../src/contract/redact-secrets.ts';
import { chunkText } from '../../src/corpus/index/chunk-text.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { hostToolTier } from '../support/ci-tools.ts';

/** Largest share of chunks with a redaction. */
const MAX_FALSE_POSITIVE_RATE = 0.005;
const GIT_DOC = '/usr/share/doc/git-doc';

const gitDoc = hostToolTier('git-doc', 'redactSecrets false positives over git-doc');
registerToolGate(gitDoc);

function files(dir: string, extension: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(extension) && !name.includes('node_modules'))
    .map((name) => join(dir, name))
    .sort();
}

/** Chunks with at least one redaction, over all chunks of the files; prints the rate. */
function measure(label: string, paths: readonly string[]): { chunks: number; flagged: string[] } {
  const flagged: string[] = [];
  let chunks = 0;
  for (const path of paths) {
    for (const chunk of chunkText(readFileSync(path, 'utf8').replace(/\r\n?/g, '\n'))) {
      chunks++;
      const { redactions, text } = redactText(chunk);
      if (redactions > 0) flagged.push(`${path}: ${(text.match(/\[redacted:[a-z-]+\]/g) ?? []).join(' ')}`);
    }
  }
  const rate = chunks === 0 ? 0 : flagged.length / chunks;
  process.stderr.write(`redactSecrets false positives, ${label}: ${flagged.length} of ${chunks} chunks (${(rate * 100).toFixed(3)}%)\n`);
  return { chunks, flagged };
}

describe('redactSecrets false positives', () => {
  test(`this repository's docs: at most ${MAX_FALSE_POSITIVE_RATE * 100}% of chunks redacted`, () => {
    const paths = [...files(join(REPO_ROOT, 'docs'), '.md'), join(REPO_ROOT, 'README.md'), join(REPO_ROOT, 'CONTRIBUTING.md'), join(REPO_ROOT, 'CHANGELOG.md')];
    const { chunks, flagged } = measure('docs/, README, CONTRIBUTING, CHANGELOG', paths);
    expect(chunks).toBeGreaterThan(500);
    expect(flagged.length / chunks).toBeLessThanOrEqual(MAX_FALSE_POSITIVE_RATE);
  });

  describe.skipIf(gitDoc.missing !== undefined)('git-doc', () => {
    test(`git's manual (${GIT_DOC}/**/*.txt): at most ${MAX_FALSE_POSITIVE_RATE * 100}% of chunks redacted`, () => {
      const { chunks, flagged } = measure('git-doc', files(GIT_DOC, '.txt'));
      expect(chunks).toBeGreaterThan(2000);
      if (flagged.length / chunks > MAX_FALSE_POSITIVE_RATE) process.stderr.write(`${flagged.join('\n')}\n`);
      expect(flagged.length / chunks).toBeLessThanOrEqual(MAX_FALSE_POSITIVE_RATE);
    });
  });
});
