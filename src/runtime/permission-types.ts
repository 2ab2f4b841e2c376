// The shape of a permission check, shared by permissions.ts and its Deno module.

/** A Deno permission name as written in `--allow-<name>`. */
export type PermissionName = 'read' | 'write' | 'env' | 'net' | 'run' | 'sys';

/** One permission to check, optionally for one path, variable, host or command. */
export interface PermissionDescriptor {
  readonly name: PermissionName;
  /** Path (read/write), variable (env), host name (net), command (run) or interface (sys, e.g. `uid`); absent for all of them. */
  readonly target?: string;
}
