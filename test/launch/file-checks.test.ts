// checkAdminFile(), resolveRepository(), isWritableByOthers() and writableByOthers(): the path rules of
// examples.md §8.3 on their own.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, chownSync, lchownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkAdminFile, FILE_REASONS, resolveRepository, writableByOthers } from '../../src/launch/file-checks.ts';
import { isWritableByOthers } from '../../src/util/trusted-path.ts';
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

// F3 of the break report: the rule holds for every component the path resolves through.
describe('writableByOthers() walks every symlink on the path', () => {
  test.skipIf(process.platform === 'win32')('an intermediate symlink in a folder other users can write makes the file writable (a)', async () => {
    const base = fx.mkdir('walk-a');
    const [adm, evil, real] = ['adm', 'evil', 'real'].map((name) => join(base, name)) as [string, string, string];
    for (const folder of [adm, evil, real]) mkdirSync(folder);
    writeFileSync(join(real, 'exe'), '#!/bin/sh\n');
    chmodSync(join(real, 'exe'), 0o755);
    for (const folder of [adm, evil, real]) chmodSync(folder, 0o755);
    symlinkSync(join(evil, 'link2'), join(adm, 'link'));
    symlinkSync(real, join(evil, 'link2'));
    // Everyone can re-point evil/link2: adm/link/exe is not safe although adm and real are.
    chmodSync(evil, 0o777);
    expect(await writableByOthers(join(adm, 'link', 'exe'))).toBe(true);
    expect(await checkAdminFile(join(adm, 'link', 'exe'))).toBe(FILE_REASONS.othersWritable);
    chmodSync(evil, 0o755);
    expect(await writableByOthers(join(adm, 'link', 'exe'))).toBe(false);
    // A relative target and `..` after a link resolve from the link's folder, as the kernel does.
    symlinkSync('../evil/link2', join(adm, 'relative'));
    expect(await writableByOthers(join(adm, 'relative', 'exe'))).toBe(false);
    expect(await writableByOthers(`${adm}/link/../real/exe`)).toBe(false);
    chmodSync(evil, 0o777);
    expect(await writableByOthers(join(adm, 'relative', 'exe'))).toBe(true);
    chmodSync(evil, 0o755);
  });

  test.skipIf(process.platform === 'win32')('a symlink loop counts as writable', async () => {
    const base = fx.mkdir('walk-loop');
    symlinkSync(join(base, 'b'), join(base, 'a'));
    symlinkSync(join(base, 'a'), join(base, 'b'));
    expect(await writableByOthers(join(base, 'a'))).toBe(true);
  });

  test.skipIf(!isRoot)('a symlink another user owns in a sticky folder makes the file writable (b; needs root for lchown)', async () => {
    const base = fx.mkdir('walk-b');
    const sticky = join(base, 'stk');
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    const target = join(base, 'fakeqwen.sh');
    writeFileSync(target, '#!/bin/sh\n');
    chmodSync(target, 0o755);
    const link = join(sticky, 'exe');
    symlinkSync(target, link);
    expect(await writableByOthers(link)).toBe(false);
    lchownSync(link, 65534, 65534);
    expect(await writableByOthers(link)).toBe(true);
    expect(await checkAdminFile(link)).toBe(FILE_REASONS.othersWritable);
    // The same link owned by another user, in a folder above the sticky one, is refused too.
    const nested = join(sticky, 'dir');
    mkdirSync(nested);
    chownSync(nested, 65534, 65534);
    expect(await writableByOthers(`${nested}/../../fakeqwen.sh`)).toBe(true);
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
