// The agent Node.js fixture's platform check (agents.md §4): the fixture publishes Linux builds
// only, and elsewhere the agent tiers' gate must say so rather than send the reader to
// `npm run fixtures`, which would install nothing.
import { expect, test } from 'bun:test';
import { agentNodeUnsupported } from './agent-node.ts';

test('agentNodeUnsupported() is undefined on linux-x64 and linux-arm64 and names the platform elsewhere', () => {
  expect([agentNodeUnsupported('linux', 'x64'), agentNodeUnsupported('linux', 'arm64')]).toEqual([undefined, undefined]);
  for (const [platform, arch] of [
    ['darwin', 'arm64'],
    ['win32', 'x64'],
    ['linux', 'ia32'],
  ] as const) {
    expect(agentNodeUnsupported(platform, arch)).toBe(`test/fixtures/agent-node has Node.js builds for linux-arm64, linux-x64 only, not ${platform}-${arch}: the agent tiers run on those platforms`);
  }
});
