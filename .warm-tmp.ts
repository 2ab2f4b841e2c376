// warm harness: bun .warm-tmp.ts <calls> <which: exe|old|relay|src-prof>
import { startBenchFixture } from './test/bench/bench-fixture.ts';
import { timeWarmCalls } from './test/bench/warm-calls.ts';
import { compileLikeProduct, REFERENCE_PROGRAMS } from './test/bench/compile-like-product.ts';
import { existsSync } from 'node:fs';
const calls = Number(process.argv[2]);
const fixture = await startBenchFixture();
const relayExe = '/tmp/rprof/stdio-relay';
if (!existsSync(relayExe)) await compileLikeProduct(REFERENCE_PROGRAMS.stdioRelay, relayExe);
for (const which of process.argv.slice(3)) {
  let cmd: string, args: string[];
  if (which === 'relay') { cmd = relayExe; args = [fixture.fake.url]; }
  else if (which === 'old') { cmd = '/work/ab-old/dist/external-context'; args = ['serve', '--config', fixture.serveConfig]; }
  else if (which === 'src') { cmd = process.execPath; args = ['src/main.ts', 'serve', '--config', fixture.serveConfig]; }
  else if (which === 'mjs') { cmd = process.execPath; args = ['dist/external-context.mjs', 'serve', '--config', fixture.serveConfig]; }
  else if (which === 'node') { cmd = 'node'; args = ['dist/external-context.mjs', 'serve', '--config', fixture.serveConfig]; }
  else if (which === 'prof') { cmd = process.execPath; args = ['--cpu-prof', '--cpu-prof-dir=/tmp/rprof/warm', 'src/main.ts', 'serve', '--config', fixture.serveConfig]; }
  else { cmd = 'dist/external-context'; args = ['serve', '--config', fixture.serveConfig]; }
  const r = await timeWarmCalls(cmd, args, fixture, calls);
  console.log(which, JSON.stringify({ overheadMsPerCall: +((r.serverMs - r.fetchMs) / calls).toFixed(3), cpuMsPerCall: +(r.serverCpuMs! / calls).toFixed(3) }));
}
await fixture.close?.();
process.exit(0);
