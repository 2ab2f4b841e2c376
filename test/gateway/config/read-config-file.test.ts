import { afterAll, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { FrontendMcpError } from '../../../src/gateway/frontend-mcp-error.ts';
import { readConfigFile } from '../../../src/gateway/config/read-config-file.ts';
import { rejectionOf } from '../../support/thrown-error.ts';
import { createTempFiles } from '../temp-files.ts';

const files = createTempFiles();
afterAll(() => files.remove());

async function reason(file: string): Promise<string> {
  const error = await rejectionOf(FrontendMcpError, readConfigFile(file));
  expect(error.code).toBe('frontend_mcp_config_unavailable');
  return error.message;
}

test('readConfigFile() parses a JSON file with a BOM-less UTF-8 body', async () => {
  expect(await readConfigFile(files.write({ version: 1, note: 'caf\u00e9' }))).toEqual({ version: 1, note: 'caf\u00e9' });
});

test('readConfigFile() names each failure reason exactly, never the path', async () => {
  const prefix = 'Unable to read Frontend MCP configuration: ';
  expect(await reason(path.join(files.dir, 'canary-missing.json'))).toBe(`${prefix}the file does not exist`);
  const dir = path.join(files.dir, 'canary-dir');
  mkdirSync(dir);
  expect(await reason(dir)).toBe(`${prefix}not a regular file`);
  expect(await reason(files.write(' '.repeat(1048577)))).toBe(`${prefix}the file is larger than 1048576 bytes`);
  expect(await reason(files.write(new Uint8Array([0x7b, 0xff, 0x7d])))).toBe(`${prefix}invalid UTF-8`);
  expect(await reason(files.write('{"canary": '))).toBe(`${prefix}invalid JSON`);
});

test('readConfigFile() accepts exactly 1048576 bytes', async () => {
  const body = `{"a":"${'x'.repeat(1048576 - 8)}"}`;
  expect(Buffer.byteLength(body)).toBe(1048576);
  expect(await readConfigFile(files.write(body))).toHaveProperty('a');
});
