// The canary constants stay valid product inputs, and expectNoCanary() catches cut leaks.
import { describe, expect, test } from 'bun:test';
import { CANARY, canaryToken, expectNoCanary, findCanaries } from './canaries.ts';
import { makeTempDir, removeTempDirs, withTempDir } from './temp-dir.ts';
import { writeConfigFile } from './config-file.ts';
import { bundlePath, exePath, REPO_ROOT } from './paths.ts';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';

describe('CANARY', () => {
  test('every token is unique and the credential is a valid header value', () => {
    const tokens = (Object.keys(CANARY) as (keyof typeof CANARY)[]).map(canaryToken);
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(CANARY.credential).toMatch(/^[\x21-\x7e]+$/);
    expect(CANARY.envName).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
  });
});

describe('expectNoCanary()', () => {
  test('passes on clean text and finds cut or escaped leaks', () => {
    expectNoCanary('external-context: context_search failed: http-status 404');
    expect(findCanaries(`..."${CANARY.credential.slice(-10)}"...`)).toEqual(['credential']);
    expect(findCanaries(JSON.stringify({ q: CANARY.query.toUpperCase() }))).toEqual(['query']);
    expect(() => expectNoCanary(`x ${CANARY.body} y`)).toThrow();
    expectNoCanary(`--credential-env ${CANARY.envName}`, { allow: ['envName'] });
  });
});

describe('temp dirs, config files and paths', () => {
  test('writeConfigFile() writes JSON or raw text into a removable temp dir', async () => {
    const path = await writeConfigFile({ version: 1 });
    expect(isAbsolute(path)).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 1 });
    const dir = await makeTempDir();
    const raw = await writeConfigFile('{not json', { dir: dir.path, name: 'bad.json' });
    expect(readFileSync(raw, 'utf8')).toBe('{not json');
    await removeTempDirs();
    expect(existsSync(path)).toBe(false);
    expect(existsSync(dir.path)).toBe(false);
  });

  test('withTempDir() removes the directory after the callback', async () => {
    const seen = await withTempDir(async (path) => path);
    expect(existsSync(seen)).toBe(false);
  });

  test('exePath() and bundlePath() point into dist/ of the repository', () => {
    expect(exePath().startsWith(`${REPO_ROOT}/dist/external-context`) || process.platform === 'win32').toBe(true);
    expect(bundlePath()).toBe(`${REPO_ROOT}/dist/external-context.mjs`);
    expect(existsSync(`${REPO_ROOT}/package.json`)).toBe(true);
  });
});
