// openReloadingIndex().reopen() (docs/design/providers.md §8.2a): SIGHUP's re-open binds the
// searches that start afterwards; an unreadable file keeps the open index and throws CorpusError.
// notReadyReason(): what /readyz answers as the file at --db changes.
import { afterAll, describe, expect, test } from 'bun:test';
import { copyFileSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CorpusError } from '../../../src/corpus/corpus-error.ts';
import { openReloadingIndex } from '../../../src/corpus/serve/reloading-index.ts';
import { indexSample } from '../sample-corpus.ts';

const first = await indexSample({ 'a.md': '# Alpha\n\nThe widget manual.\n' });
const second = await indexSample({ 'b.md': '# Beta\n\nThe widget handbook.\n' });
afterAll(() => {
  first.remove();
  second.remove();
});

describe('openReloadingIndex().reopen()', () => {
  test('keeps the open index when the file is not an index, and uses a new one after a successful re-open', async () => {
    const db = join(first.dir, 'served.sqlite');
    copyFileSync(first.dbPath, db);
    const index = await openReloadingIndex(db, first.dir);
    try {
      expect((await index.search('widget', 5)).map((item) => item.id)).toEqual(['a.md#alpha:1']);
      const unopened = join(first.dir, 'garbage.sqlite');
      writeFileSync(unopened, 'not an index');
      const broken = await openReloadingIndex(db, first.dir);
      // Replaced by rename, as corpus index does: the open connection keeps the old file.
      renameSync(unopened, db);
      const error = await broken.reopen().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(CorpusError);
      expect((error as CorpusError).kind).toBe('index-unreadable');
      expect((await broken.search('widget', 5)).map((item) => item.id)).toEqual(['a.md#alpha:1']);
      broken.close();
      copyFileSync(second.dbPath, `${db}.next`);
      renameSync(`${db}.next`, db);
      await index.reopen();
      expect((await index.search('widget', 5)).map((item) => item.id)).toEqual(['b.md#beta:1']);
    } finally {
      index.close();
    }
  });
});

describe('openReloadingIndex().notReadyReason()', () => {
  test('ready, then index-unreadable (overwritten in place), ready (another index in place), index-missing, index-closed', async () => {
    const db = join(first.dir, 'probed.sqlite');
    copyFileSync(first.dbPath, db);
    const index = await openReloadingIndex(db, first.dir);
    expect(await index.notReadyReason()).toBeUndefined();
    writeFileSync(db, 'x'.repeat(8192));
    expect(await index.notReadyReason()).toBe('index-unreadable');
    // Stays so while the file does not change again; searches meet the same file.
    expect(await index.notReadyReason()).toBe('index-unreadable');
    copyFileSync(second.dbPath, db);
    expect(await index.notReadyReason()).toBeUndefined();
    expect((await index.search('widget', 5)).map((item) => item.id)).toEqual(['b.md#beta:1']);
    // Overwritten in place with the same size and modification time: the identity is unchanged,
    // so only the format-marker query can tell.
    // (A whole-second time first, which utimes sets exactly, and a probe to take it in.)
    utimesSync(db, 1_700_000_000, 1_700_000_000);
    expect(await index.notReadyReason()).toBeUndefined();
    const before = statSync(db);
    writeFileSync(db, Buffer.alloc(before.size, 0x78));
    utimesSync(db, 1_700_000_000, 1_700_000_000);
    const after = statSync(db);
    expect([after.ino, after.size, after.mtimeMs, readFileSync(db)[0]]).toEqual([before.ino, before.size, before.mtimeMs, 0x78]);
    expect(await index.notReadyReason()).toBe('index-unreadable');
    rmSync(db);
    expect(await index.notReadyReason()).toBe('index-missing');
    index.close();
    expect(await index.notReadyReason()).toBe('index-closed');
  });
});
