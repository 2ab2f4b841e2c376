// Starts one strict fake by hand, for trying the executable against it outside the test suite:
//   bun test/fakes/serve-fake.ts generic|platform|server-rest|polardb
// It seeds two records, writes a version 1 configuration next to a fresh temporary folder and
// prints the commands to run; Ctrl-C stops it and removes the folder.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { startGenericHttpFake } from './generic-http.ts';
import { startMem0PlatformFake } from './mem0-platform.ts';
import { startMem0ServerFake } from './mem0-server.ts';

const TOKEN = 'demo-credential';
const RECORDS = [
  { id: 'policy-1', text: 'Use the reviewed deployment workflow.' },
  { id: 'policy-2', text: 'Deployment policy: release on Tuesdays after review.' },
];

interface Started {
  readonly close: () => Promise<void>;
  readonly provider: Record<string, unknown>;
}

async function start(kind: string): Promise<Started> {
  switch (kind) {
    case 'generic': {
      const fake = await startGenericHttpFake({
        token: TOKEN,
        items: RECORDS.map((record) => ({ id: record.id, content: record.text, title: 'Deployment policy' })),
      });
      return { close: () => fake.close(), provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: 'CONTEXT_TOKEN' } };
    }
    case 'platform': {
      const fake = await startMem0PlatformFake({
        apiKey: TOKEN,
        memories: RECORDS.map((record) => ({ id: record.id, memory: record.text, app_id: 'repository-memory' })),
      });
      const scope = { appId: 'repository-memory' };
      return { close: () => fake.close(), provider: mem0Provider('mem0-platform-v3', fake.origin, scope) };
    }
    case 'server-rest':
    case 'polardb': {
      const routes = kind === 'polardb' ? 'polardb' : 'stock';
      const fake = await startMem0ServerFake({
        apiKey: TOKEN,
        routes,
        memories: RECORDS.map((record) => ({ id: record.id, memory: record.text, user_id: 'u1' })),
      });
      const preset = kind === 'polardb' ? 'polardb-mysql-2026-08' : 'mem0-server-rest-2026-08';
      return { close: () => fake.close(), provider: mem0Provider(preset, fake.origin, { userId: 'u1' }) };
    }
    default:
      throw new RangeError('Name one fake: generic, platform, server-rest or polardb.');
  }
}

function mem0Provider(preset: string, origin: string, scope: Record<string, string>): Record<string, unknown> {
  return { type: 'mem0', preset, endpoint: { origin }, credentialEnv: 'CONTEXT_TOKEN', scope };
}

const kind = process.argv[2] ?? '';
let started: Started;
try {
  started = await start(kind);
} catch (error) {
  process.stderr.write(`${error instanceof RangeError ? error.message : 'The fake could not start.'}\n`);
  process.exit(2);
}
const dir = mkdtempSync(path.join(tmpdir(), 'external-context-fake-'));
const configPath = path.join(dir, 'config.json');
const write = kind === 'generic' ? {} : { write: { enabled: true } };
writeFileSync(configPath, `${JSON.stringify({ version: 1, provider: started.provider, ...write }, null, 2)}\n`);
process.stdout.write(
  [
    `${kind} fake listening; configuration: ${configPath}`,
    `  CONTEXT_TOKEN=${TOKEN} dist/external-context check --config ${configPath} --search "deployment policy"`,
    `  CONTEXT_TOKEN=${TOKEN} dist/external-context serve --config ${configPath}`,
    'Ctrl-C stops the fake.',
    '',
  ].join('\n'),
);
const stop = async (): Promise<void> => {
  await started.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
