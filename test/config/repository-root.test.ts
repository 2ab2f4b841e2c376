// resolveRepositoryRoot(): absolute, realpath, directory, not a file-system root; the
// canonical path is stored (config.md §7.2).
import { afterAll, describe, expect, test } from 'bun:test';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../src/config/config-error.ts';
import { resolveRepositoryRoot } from '../../src/config/repository-root.ts';
import { createTempConfigDir } from './temp-config.ts';

const MESSAGE = (reason: string): string => `External context repository root is invalid: ${reason}. Field: autoRecall.repositoryRoot.`;
const temp = createTempConfigDir('ec-root-');
afterAll(() => temp.remove());

async function expectInvalid(root: string, reason: string): Promise<void> {
  try {
    await resolveRepositoryRoot(root);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(MESSAGE(reason));
    expect((error as ConfigError).fieldPath).toBe('autoRecall.repositoryRoot');
    return;
  }
  throw new Error('resolveRepositoryRoot() accepted the root');
}

describe('resolveRepositoryRoot()', () => {
  test('resolveRepositoryRoot() returns a canonical directory unchanged', async () => {
    const repo = temp.mkdir('repo');
    expect(await resolveRepositoryRoot(repo)).toBe(repo);
  });

  test('resolveRepositoryRoot() canonicalizes "..", "." and a trailing separator', async () => {
    const repo = temp.mkdir('repo-dots/inner');
    expect(await resolveRepositoryRoot(`${repo}/../inner/./`)).toBe(repo);
  });

  test('resolveRepositoryRoot() resolves a symlinked root to its target', async () => {
    const target = temp.mkdir('real-repo');
    const link = path.join(temp.dir, 'linked-repo');
    symlinkSync(target, link);
    expect(await resolveRepositoryRoot(link)).toBe(target);
  });

  test('resolveRepositoryRoot() rejects a relative root', async () => {
    temp.mkdir('relative-repo');
    await expectInvalid('relative-repo', 'it must be an absolute path');
    await expectInvalid('./relative-repo', 'it must be an absolute path');
    await expectInvalid(path.relative(process.cwd(), temp.dir), 'it must be an absolute path');
  });

  test('resolveRepositoryRoot() rejects a missing path, a regular file and a symlink to a file', async () => {
    await expectInvalid(path.join(temp.dir, 'missing'), 'it does not exist');
    const file = temp.write('{}', 'a-file');
    await expectInvalid(file, 'it is not a directory');
    const link = path.join(temp.dir, 'link-to-file');
    symlinkSync(file, link);
    await expectInvalid(link, 'it is not a directory');
  });

  test('resolveRepositoryRoot() rejects the file-system root, also through a symlink', async () => {
    await expectInvalid(path.parse(process.cwd()).root, 'it must not be a file-system root');
    const link = path.join(temp.dir, 'link-to-root');
    symlinkSync(path.parse(process.cwd()).root, link);
    await expectInvalid(link, 'it must not be a file-system root');
  });

  test.skipIf(process.platform !== 'win32')('resolveRepositoryRoot() rejects a drive root such as C:\\ on Windows', async () => {
    await expectInvalid('C:\\', 'it must not be a file-system root');
  });
});
