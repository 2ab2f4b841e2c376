// readLaunchProfile(): the file rules and exact messages of examples.md §8.2; messages never
// contain the path or the contents.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LaunchProfileError } from '../../src/launch/launch-profile-error.ts';
import { MAX_LAUNCH_PROFILE_BYTES, PROFILE_WRITABLE_MESSAGE, readLaunchProfile } from '../../src/launch/read-launch-profile.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { rejectionOf } from '../support/thrown-error.ts';
import { createLaunchFixture, type LaunchFixture } from './launch-fixture.ts';

const NOT_A_FILE = 'External context launch profile is not a valid file.';
const UNREADABLE = 'External context launch profile could not be read.';
const NOT_JSON = 'External context launch profile is not valid JSON.';

let fx: LaunchFixture;
beforeAll(async () => {
  fx = await createLaunchFixture();
});
afterAll(removeTempDirs);

async function failure(file: string): Promise<string> {
  const { message } = await rejectionOf(LaunchProfileError, readLaunchProfile(file));
  expect(message).not.toContain(fx.dir);
  return message;
}

const sized = (bytes: number): string => '{"version":1}'.padEnd(bytes, ' ');

describe('readLaunchProfile()', () => {
  test('readLaunchProfile() parses JSON, dropping one leading byte-order mark', async () => {
    expect(await readLaunchProfile(fx.write('plain.json', { version: 1 }))).toEqual({ version: 1 });
    expect(await readLaunchProfile(fx.write('bom.json', '\uFEFF{"version":1}'))).toEqual({ version: 1 });
  });

  test(`readLaunchProfile() accepts ${MAX_LAUNCH_PROFILE_BYTES} bytes and rejects 65537 as not a valid file`, async () => {
    expect(MAX_LAUNCH_PROFILE_BYTES).toBe(65536);
    expect(await readLaunchProfile(fx.write('max.json', sized(65536)))).toEqual({ version: 1 });
    expect(await failure(fx.write('over.json', sized(65537)))).toBe(NOT_A_FILE);
  });

  test('readLaunchProfile() rejects a directory as not a valid file', async () => {
    expect(await failure(fx.mkdir('profile-dir.json'))).toBe(NOT_A_FILE);
  });

  test.skipIf(process.platform === 'win32')('readLaunchProfile() rejects a profile other users can write with its own message', async () => {
    expect(await failure(fx.write('shared.json', { version: 1 }, 0o646))).toBe(PROFILE_WRITABLE_MESSAGE);
    expect(await failure(fx.write('group.json', { version: 1 }, 0o664))).toBe(PROFILE_WRITABLE_MESSAGE);
    expect(PROFILE_WRITABLE_MESSAGE).toBe('External context launch profile must not be writable by other users.');
    // A folder the profile is in counts too.
    const open = fx.mkdir('open-profile-folder');
    const inOpen = join(open, 'profile.json');
    writeFileSync(inOpen, '{"version":1}');
    chmodSync(inOpen, 0o644);
    chmodSync(open, 0o777);
    expect(await failure(inOpen)).toBe(PROFILE_WRITABLE_MESSAGE);
    chmodSync(open, 0o755);
    expect(await readLaunchProfile(inOpen)).toEqual({ version: 1 });
  });

  test('readLaunchProfile() reports a stat error (missing file, dangling link, path through a file) as could not be read', async () => {
    expect(await failure(join(fx.dir, 'missing.json'))).toBe(UNREADABLE);
    const dangling = join(fx.dir, 'dangling.json');
    symlinkSync(join(fx.dir, 'nowhere.json'), dangling);
    expect(await failure(dangling)).toBe(UNREADABLE);
    expect(await failure(join(fx.systemSettings, 'below-a-file.json'))).toBe(UNREADABLE);
  });

  test('readLaunchProfile() rejects invalid UTF-8 and invalid JSON without echoing the content', async () => {
    const badBytes = join(fx.dir, 'bad-bytes.json');
    writeFileSync(badBytes, new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]));
    expect(await failure(badBytes)).toBe(NOT_JSON);
    expect(await failure(fx.write('trailing.json', '{"version":1,} canary-content'))).toBe(NOT_JSON);
    expect(await failure(fx.write('empty.json', ''))).toBe(NOT_JSON);
  });
});
