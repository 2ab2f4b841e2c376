// readJsonFile(): the administrator-file reader behind readConfigJson() and readLaunchProfile()
// hands the caller's messages to the caller's error and applies its extra stat rule; the file
// rules themselves are covered through both callers (read-file.test.ts, read-launch-profile.test.ts).
import { afterAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import { type JsonFileRules, readJsonFile } from '../../src/config/read-json-file.ts';
import { rejectionOf } from '../support/thrown-error.ts';
import { createTempConfigDir } from './temp-config.ts';

class TestFileError extends Error {
  override readonly name = 'TestFileError';
}

const MESSAGES = { notAFile: 'not a file.', unreadable: 'unreadable.', notJson: 'not JSON.', duplicateKey: (path: string) => `duplicate ${path}.` } as const;

function rules(extra: Partial<JsonFileRules> = {}): JsonFileRules {
  return { maxBytes: 16, messages: MESSAGES, toError: (message, cause) => new TestFileError(message, { cause }), ...extra };
}

const temp = createTempConfigDir('ec-read-json-file-');
afterAll(() => temp.remove());

function failure(file: string, fileRules: JsonFileRules): Promise<TestFileError> {
  return rejectionOf(TestFileError, readJsonFile(file, fileRules));
}

describe('readJsonFile()', () => {
  test('readJsonFile() accepts exactly maxBytes bytes and names one more byte with the notAFile message', async () => {
    expect(await readJsonFile(temp.write('{"a":1}'.padEnd(16, ' ')), rules())).toEqual({ a: 1 });
    const over = await failure(temp.write('{"a":1}'.padEnd(17, ' ')), rules());
    expect(over.message).toBe(MESSAGES.notAFile);
    expect(over.cause).toBeUndefined();
  });

  test('readJsonFile() passes the underlying error as cause for unreadable and notJson', async () => {
    const missing = await failure(path.join(temp.dir, 'missing.json'), rules());
    expect(missing.message).toBe(MESSAGES.unreadable);
    expect(missing.cause).toBeInstanceOf(Error);
    const notJson = await failure(temp.write('{CANARY'), rules());
    expect(notJson.message).toBe(MESSAGES.notJson);
    expect(notJson.message).not.toContain('CANARY');
    expect(notJson.cause).toBeInstanceOf(SyntaxError);
  });

  test('readJsonFile() refuses a file the refuseStat rule refuses with the notAFile message', async () => {
    const file = temp.write('{}');
    const seen: number[] = [];
    const refusing = rules({ refuseStat: (info) => (seen.push(info.size), true) });
    expect((await failure(file, refusing)).message).toBe(MESSAGES.notAFile);
    expect(seen).toEqual([2]);
    expect(await readJsonFile(file, rules({ refuseStat: () => false }))).toEqual({});
  });
});
