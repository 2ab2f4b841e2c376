// Start-up breakdown: loads node:util and parses one flag with parseArgs, then prints through fd 1.
import { writeSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ args: ['--line', 'floor'], options: { line: { type: 'string' } }, strict: true });
writeSync(1, `${String(values.line)}\n`);
