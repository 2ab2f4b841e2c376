// Start-up breakdown: evaluates the product's static module graph (main.ts's imports), then
// prints through fd 1 and exits at once: the cost of loading the graph without running a command.
import { writeSync } from 'node:fs';
import process from 'node:process';
import { run } from '../../../src/cli/dispatch.ts';

writeSync(1, typeof run === 'function' ? 'floor\n' : '\n');
process.exit(0);
