// The TOML parser of `check --host codex` (smol-toml, config.md §11) inside both build outputs:
// the compiled executable (Bun), and dist/external-context.mjs under the real Node.js on PATH
// and Deno with the base permissions. Each reads a shipped Codex example and names the line of
// a syntax error without its text. (Only --settings reads the example: the server entry's
// executable item calls process.getuid, which Deno refuses without --allow-sys, on every host.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXAMPLES_DIR } from '../contracts/examples-files.ts';
import { cleanEnv } from '../support/env.ts';
import { type RuntimeId, launcher } from '../support/launchers.ts';
import { exePath, requireBuilt } from '../support/paths.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { runProcess } from '../support/run-process.ts';
import { makeTempDir, type TempDir } from '../support/temp-dir.ts';

const CANARY = 'canary-bundle-toml-91c2';
let tmp: TempDir;
const files = { config: '', example: '', broken: '' };

beforeAll(async () => {
  tmp = await makeTempDir('ec-bundle-toml-');
  files.config = path.join(tmp.path, 'search.json');
  writeFileSync(files.config, JSON.stringify({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: 'http://127.0.0.1:9', tokenEnv: 'CONTEXT_API_TOKEN' } }));
  files.example = path.join(tmp.path, 'config.toml');
  writeFileSync(
    files.example,
    readFileSync(path.join(EXAMPLES_DIR, 'codex', 'search-config.toml'), 'utf8')
      .replaceAll('/opt/external-context/bin/external-context', requireBuilt(exePath()))
      .replaceAll('/etc/external-context/search.json', files.config),
  );
  files.broken = path.join(tmp.path, 'broken.toml');
  writeFileSync(files.broken, `a = 1\n\n[hooks.${CANARY}\n`);
});

afterAll(async () => {
  await tmp.remove();
});

const FILE_OPEN = proves('file-open', ['executable', 'node-bundle', 'deno-bundle']);
const NAMES: Readonly<Record<RuntimeId, string>> = { executable: 'the executable', 'node-bundle': 'node', 'deno-bundle': 'deno' };

describe('check --host codex reads TOML in every build output', () => {
  for (const id of ['executable', 'node-bundle', 'deno-bundle'] as const) {
    test(`${NAMES[id]}: the example parses; a syntax error names line 3 and not its text ${FILE_OPEN(id)}`, async () => {
      const { command, args } = launcher(id);
      const result = await runProcess(command, [...args, 'check', '--config', files.config, '--host', 'codex', '--mcp-config', files.broken, '--settings', files.example, '--json'], {
        env: cleanEnv({ CONTEXT_API_TOKEN: 't' }),
      });
      const items = (JSON.parse(result.stdout) as { items: { id: string; status: string; message: string }[] }).items;
      const byId = (id: string) => items.find((entry) => entry.id === id);
      expect(byId('settings')).toMatchObject({ status: 'ok', message: `${files.example}: readable TOML.` });
      expect(byId('mcp-config')).toMatchObject({ status: 'fail', message: `${files.broken}: is not valid TOML (line 3).` });
      expect(result.stdout + result.stderr).not.toContain(CANARY);
      expect(result.code).toBe(1);
    });
  }
});
