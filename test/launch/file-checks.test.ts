// checkAdminFile(), resolveRepository() and isWritableByOthers(): the path rules of
// examples.md §8.3 on their own.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { checkAdminFile, FILE_REASONS, isWritableByOthers, resolveRepository } from '../../src/launch/file-checks.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { createLaunchFixture, type LaunchFixture } from './launch-fixture.ts';

let fx: LaunchFixture;
beforeAll(async () => {
  fx = await createLaunchFixture();
});
afterAll(removeTempDirs);

describe('isWritableByOthers()', () => {
  test.skipIf(process.platform === 'win32')('isWritableByOthers() looks only at the others-write bit', () => {
    expect(isWritableByOthers(0o100644)).toBe(false);
    expect(isWritableByOthers(0o100664)).toBe(false);
    expect(isWritableByOthers(0o100646)).toBe(true);
    expect(isWritableByOthers(0o100777)).toBe(true);
  });
});

describe('checkAdminFile()', () => {
  test('checkAdminFile() accepts a regular file and names the first failing rule otherwise', async () => {
    expect(await checkAdminFile(fx.systemSettings)).toBeUndefined();
    expect(await checkAdminFile('settings.json')).toBe(FILE_REASONS.absolute);
    expect(await checkAdminFile(join(fx.dir, 'missing'))).toBe(FILE_REASONS.regularFile);
    expect(await checkAdminFile(fx.repository)).toBe(FILE_REASONS.regularFile);
  });

  test.skipIf(process.platform === 'win32')('checkAdminFile() refuses a world-writable file', async () => {
    expect(await checkAdminFile(fx.write('open.json', {}, 0o777))).toBe(FILE_REASONS.othersWritable);
  });
});

describe('resolveRepository()', () => {
  test('resolveRepository() returns the canonical directory and the failing rule otherwise', async () => {
    expect(await resolveRepository(fx.repository)).toEqual({ ok: true, canonical: fx.repository });
    expect(await resolveRepository(`${fx.repository}/../repository/.`)).toEqual({ ok: true, canonical: fx.repository });
    expect(await resolveRepository('repository')).toEqual({ ok: false, reason: FILE_REASONS.absolute });
    expect(await resolveRepository(fx.systemSettings)).toEqual({ ok: false, reason: FILE_REASONS.directory });
    expect(await resolveRepository('/')).toEqual({ ok: false, reason: FILE_REASONS.root });
  });
});
