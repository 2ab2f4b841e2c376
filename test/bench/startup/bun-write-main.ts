// Start-up breakdown: prints the floor's line with Bun.write(Bun.stdout), without node:fs.
export {};

await Bun.write(Bun.stdout, 'floor\n');
