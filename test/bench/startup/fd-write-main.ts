// Start-up breakdown: prints the floor's line through fd 1 with node:fs writeSync, as the product does.
import { writeSync } from 'node:fs';

writeSync(1, 'floor\n');
