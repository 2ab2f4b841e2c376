// checkAdminFile(), resolveRepository(), isWritableByOthers() and writableByOthers(): the path rules of
// examples.md §8.3 on their own.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, chownSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkAdminFile, FILE_REASONS, isWritableByOthers, resolveRepository, writableByOthers } from '../../src/launch/file-checks.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { createLaunchFixture, type LaunchFixture } from './launch-fixture.ts';

let fx: LaunchFixture;
beforeAll(async () => {
  fx = await createLaunchFixture();
});
afterAll(removeTempDirs);

describe('isWritableByOthers()', () => {
  const FILE = 0o100000;
  const DIR = 0o040000;
  test('isWritableByOthers() refuses the group- and world-write bits', () => {
    expect(isWritableByOthers({ uid: 0, mode: FILE | 0o644 }, 1000)).toBe(false);
    expect(isWritableByOthers({ uid: 0, mode: FILE | 0o755 }, 1000)).toBe(false);
    expect(isWritableByOthers({ uid: 0, mode: FILE | 0o664 }, 1000)).toBe(true);
    expect(isWritableByOthers({ uid: 0, mode: FILE | 0o646 }, 1000)).toBe(true);
    expect(isWritableByOthers({ uid: 0, mode: DIR | 0o777 }, 1000)).toBe(true);
  });

  test('isWritableByOthers() accepts only root or the running user as the owner', () => {
    expect(isWritableByOthers({ uid: 1000, mode: FILE | 0o644 }, 1000)).toBe(false);
    expect(isWritableByOthers({ uid: 65534, mode: FILE | 0o644 }, 1000)).toBe(true);
    expect(isWritableByOthers({ uid: 65534, mode: DIR | 0o1755 }, 1000)).toBe(true);
  });

  test('isWritableByOthers() lets a sticky folder be group- and world-writable, never a sticky file', () => {
    expect(isWritableByOthers({ uid: 0, mode: DIR | 0o1777 }, 1000)).toBe(false);
    expect(isWritableByOthers({ uid: 0, mode: FILE | 0o1666 }, 1000)).toBe(true);
  });
});

describe('checkAdminFile()', () => {
  test('checkAdminFile() accepts a regular file and names the first failing rule otherwise', async () => {
    expect(await checkAdminFile(fx.systemSettings)).toBeUndefined();
    expect(await checkAdminFile('settings.json')).toBe(FILE_REASONS.absolute);
    expect(await checkAdminFile(join(fx.dir, 'missing'))).toBe(FILE_REASONS.regularFile);
    expect(await checkAdminFile(fx.repository)).toBe(FILE_REASONS.regularFile);
  });

  test.skipIf(process.platform === 'win32')('checkAdminFile() refuses a world- or group-writable file', async () => {
    expect(await checkAdminFile(fx.write('open.json', {}, 0o777))).toBe(FILE_REASONS.othersWritable);
    expect(await checkAdminFile(fx.write('group.json', {}, 0o664))).toBe(FILE_REASONS.othersWritable);
    expect(await checkAdminFile(fx.write('group-exec', '#!/bin/sh\n', 0o775))).toBe(FILE_REASONS.othersWritable);
  });

  test.skipIf(process.platform === 'win32')('checkAdminFile() refuses a file in a folder other users can write, unless the folder is sticky', async () => {
    const open = fx.mkdir('open-folder');
    const file = join(open, 'settings.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o644);
    chmodSync(open, 0o777);
    expect(await checkAdminFile(file)).toBe(FILE_REASONS.othersWritable);
    chmodSync(open, 0o1777);
    expect(await checkAdminFile(file)).toBeUndefined();
    chmodSync(open, 0o755);
    expect(await checkAdminFile(file)).toBeUndefined();
  });
});

// Giving a file to another owner needs root; elsewhere this case is covered by isWritableByOthers().
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe('writableByOthers()', () => {
  test.skipIf(!isRoot)('writableByOthers() refuses a file or a folder above it owned by another user', async () => {
    const folder = fx.mkdir('owned');
    const file = join(folder, 'profile.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o644);
    expect(await writableByOthers(file)).toBe(false);
    chownSync(file, 65534, 65534);
    expect(await writableByOthers(file)).toBe(true);
    chownSync(file, 0, 0);
    chownSync(folder, 65534, 65534);
    expect(await writableByOthers(file)).toBe(true);
    chownSync(folder, 0, 0);
    expect(await writableByOthers(file)).toBe(false);
  });

  test.skipIf(process.platform === 'win32')('writableByOthers() checks the folders of the path as given and after symlinks', async () => {
    const open = fx.mkdir('open-target');
    const target = join(open, 'settings.json');
    writeFileSync(target, '{}');
    chmodSync(target, 0o644);
    const safe = fx.mkdir('safe-links');
    symlinkSync(target, join(safe, 'settings.json'));
    chmodSync(open, 0o777);
    expect(await writableByOthers(join(safe, 'settings.json'))).toBe(true);
    chmodSync(open, 0o755);
    expect(await writableByOthers(join(safe, 'settings.json'))).toBe(false);
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
