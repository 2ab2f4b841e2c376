// Start-up breakdown: prints the floor's line through the process.stdout stream object.
process.stdout.write('floor\n');
