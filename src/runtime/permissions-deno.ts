// Deno permission queries: Deno.permissions.querySync, reached through globalThis so src/
// type-checks without Deno types. Never requests a permission (no prompt).
import type { PermissionDescriptor } from './permission-types.ts';

interface DenoPermissions {
  querySync(descriptor: Record<string, string>): { readonly state: string };
}

/**
 * Returns the first descriptor whose permission is not granted.
 *
 * @param descriptors Permissions to check, in order.
 * @returns The first missing one, or undefined when all are granted.
 */
export function firstMissingDenoPermission(descriptors: readonly PermissionDescriptor[]): PermissionDescriptor | undefined {
  const permissions = (globalThis as unknown as { Deno: { permissions: DenoPermissions } }).Deno.permissions;
  return descriptors.find((descriptor) => {
    try {
      return permissions.querySync(toDeno(descriptor)).state !== 'granted';
    } catch {
      // An unparsable descriptor (an odd host name) counts as missing rather than crashing.
      return true;
    }
  });
}

function toDeno(descriptor: PermissionDescriptor): Record<string, string> {
  const { name, target } = descriptor;
  if (target === undefined) return { name };
  switch (name) {
    case 'read':
    case 'write':
      return { name, path: target };
    case 'env':
      return { name, variable: target };
    case 'net':
      // A bare IPv6 address gets brackets; `host:port` and `[IPv6]:port` pass as they are.
      return { name, host: (target.match(/:/gu) ?? []).length > 1 && !target.startsWith('[') ? `[${target}]` : target };
    case 'run':
      return { name, command: target };
    case 'sys':
      return { name, kind: target };
  }
}
