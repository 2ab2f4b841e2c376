// Start-up breakdown: reads process.stderr.isTTY (which builds the stderr stream), then prints through fd 1.
import { writeSync } from 'node:fs';

writeSync(1, process.stderr.isTTY === true ? 'floor\n' : 'floor\n');
