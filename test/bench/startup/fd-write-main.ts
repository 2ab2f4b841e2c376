// Start-up breakdown: prints the floor's line through fd 1 with writeSync, a named import from node:fs.
import { writeSync } from 'node:fs';

writeSync(1, 'floor\n');
