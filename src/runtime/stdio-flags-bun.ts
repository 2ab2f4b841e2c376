// Bun side of src/runtime/stdio-flags.ts: the status flags of an fd through libc's fcntl
// (bun:ffi), which node:fs does not expose. bun:ffi is imported with a non-literal specifier so
// src/ type-checks without bun-types (as sqlite-bun.ts does).
import process from 'node:process';
import type { FdFlags } from './stdio-flags.ts';

const BUN_FFI = 'bun:ffi';

/** The part of bun:ffi used here; `i32` and `i64` are FFIType names. */
interface BunFfiModule {
  dlopen(path: string, symbols: { fcntl: { args: string[]; returns: string } }): { symbols: { fcntl: (...args: number[]) => number } };
}

const F_GETFL = 3;
const F_SETFL = 4;
/**
 * fcntl is variadic. On Linux (x64, arm64) and Intel macOS a variadic int travels where a
 * third fixed argument would. Apple's arm64 ABI puts every variadic argument on the stack, so
 * the call there fills the eight argument registers and passes the flags as the ninth
 * argument, the first stack slot, which is where fcntl reads it.
 */
const STACK_VARIADIC = process.platform === 'darwin' && process.arch === 'arm64';

/**
 * Opens libc (`libc.so.6` on Linux, libSystem on macOS) and binds fcntl.
 *
 * @returns Resolves to get (F_GETFL; undefined when the fd is not open) and set (F_SETFL; errors ignored).
 * @throws {Error} When libc cannot be opened.
 */
export async function openFdFlagsBun(): Promise<FdFlags> {
  const { dlopen } = (await import(BUN_FFI)) as BunFfiModule;
  const path = process.platform === 'darwin' ? '/usr/lib/libSystem.B.dylib' : 'libc.so.6';
  let fcntl: (fd: number, command: number, value: number) => number;
  if (STACK_VARIADIC) {
    const { symbols } = dlopen(path, { fcntl: { args: ['i32', 'i32', 'i64', 'i64', 'i64', 'i64', 'i64', 'i64', 'i64'], returns: 'i32' } });
    fcntl = (fd, command, value) => symbols.fcntl(fd, command, 0, 0, 0, 0, 0, 0, value);
  } else {
    const { symbols } = dlopen(path, { fcntl: { args: ['i32', 'i32', 'i64'], returns: 'i32' } });
    fcntl = (fd, command, value) => symbols.fcntl(fd, command, value);
  }
  return {
    get: (fd) => {
      const flags = fcntl(fd, F_GETFL, 0);
      return flags >= 0 ? flags : undefined;
    },
    set: (fd, flags) => {
      fcntl(fd, F_SETFL, flags);
    },
  };
}
