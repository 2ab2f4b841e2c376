// Soak and chaos in CI (issue 20 item 10): 2,000 calls per server (the 10,000-call run is
// `bun test/soak/soak.ts 10000`). Every call answered exactly once with a result or the stable
// error, one provider request per call, no file-descriptor or memory growth beyond noise, and
// a normal answer afterwards. Linux (/proc) and the compiled executable only. A long tier:
// `npm run test:long` runs it (`.ci/run` after `npm test`); the `.long.ts` name keeps a bare
// `bun test` from picking it up.
import { expect, test } from 'bun:test';
import { exePath, requireBuilt } from '../support/paths.ts';
import { runSoak } from './soak.ts';

const CALLS = 2000;

requireBuilt(exePath());

test.skipIf(process.platform !== 'linux')(
  `stdio and serve --http each answer ${CALLS} chaos calls exactly once, with one provider request each and no growth`,
  async () => {
    for (const report of await runSoak(CALLS)) {
      console.log(`[soak] ${JSON.stringify(report)}`);
      expect({
        surface: report.surface,
        answered: report.answered,
        other: report.other,
        duplicates: report.duplicates,
        providerRequests: report.providerRequests,
        afterwardOk: report.afterwardOk,
      }).toEqual({
        surface: report.surface,
        answered: CALLS,
        other: 0,
        duplicates: 0,
        providerRequests: CALLS,
        afterwardOk: true,
      });
      expect(report.results + report.stableErrors).toBe(CALLS);
      // Every chaos mode occurred, so both outcomes did.
      expect(report.results).toBeGreaterThan(0);
      expect(report.stableErrors).toBeGreaterThan(0);
      expect(report.end.fds).toBeLessThanOrEqual(report.start.fds + 16);
      expect(report.end.rssKib - report.start.rssKib).toBeLessThanOrEqual(48 * 1024);
    }
  },
  120_000,
);
