// Start-up breakdown: a program that does nothing (runtime start and the embedded module only).
export {};
