// The process a runtime row runs its outbound batch in (test/support/outbound-runner.ts): reads
// one JSON case per stdin line (`{"id":n,"case":{…}}`), runs each as it arrives (cases that wait
// on timeouts overlap), and writes `{"id":n,"outcome":{…}}` per line to stdout. It writes
// nothing else: the runner checks that the runtime itself left stderr empty.
import process from 'node:process';
import { createInterface } from 'node:readline';
import { type OutboundCase, runOutboundCase } from './outbound-driver.ts';

const pending: Promise<void>[] = [];
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const { id, case: entry } = JSON.parse(line) as { id: number; case: OutboundCase };
  pending.push(
    runOutboundCase(entry).then(
      (outcome) => void process.stdout.write(`${JSON.stringify({ id, outcome })}\n`),
      (error: unknown) => void process.stdout.write(`${JSON.stringify({ id, outcome: { status: 'threw', message: String(error) } })}\n`),
    ),
  );
}
await Promise.all(pending);
