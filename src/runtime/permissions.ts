// Runtime-neutral permission check: only Deno has permissions; Bun and Node.js grant everything
// (docs/design/README.md, "Deno permissions").
import type { PermissionDescriptor, PermissionName } from './permission-types.ts';
import { RUNTIME } from './runtime.ts';

/**
 * Finds the first permission the process lacks, without ever prompting.
 *
 * @param descriptors Permissions the command needs, in the order they are reported.
 * @returns The missing permission's name (for `--allow-<name>`), or undefined when everything
 *   is granted or the runtime has no permission system (Bun, Node.js).
 * @see docs/design/README.md, "Deno permissions"
 */
export async function missingPermission(descriptors: readonly PermissionDescriptor[]): Promise<PermissionName | undefined> {
  if (RUNTIME !== 'deno') return undefined;
  const { firstMissingDenoPermission } = await import('./permissions-deno.ts');
  return firstMissingDenoPermission(descriptors)?.name;
}

/**
 * The one stderr message (without the `[external-context] ` prefix) for a missing permission.
 *
 * @param name The missing permission.
 * @returns `This command needs the Deno permission --allow-<name>.`
 */
export function permissionMessage(name: PermissionName): string {
  return `This command needs the Deno permission --allow-${name}.`;
}
