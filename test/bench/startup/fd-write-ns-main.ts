// Start-up breakdown: fd-write-main.ts with a namespace import of node:fs, as the product's
// start-up modules import it (a named import links about 1 ms of CPU slower in the executable).
import * as fs from 'node:fs';

fs.writeSync(1, 'floor\n');
