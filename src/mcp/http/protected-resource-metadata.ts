// OAuth 2.0 Protected Resource Metadata (RFC 9728) of the remote server (docs/design/remote.md §1.4).

/** The RFC 9728 path of the metadata for the resource `<origin>/mcp`. */
export const METADATA_PATH_SUFFIXED = '/.well-known/oauth-protected-resource/mcp';
/** The root form, served too because some clients look there first (docs/design/remote.md §1.4). */
export const METADATA_PATH_ROOT = '/.well-known/oauth-protected-resource';

/** What the metadata document names. */
export interface ResourceMetadataInput {
  /** `--resource`, exactly as given. */
  readonly resource: string;
  /** `--issuer`, exactly as given. */
  readonly issuer: string;
  /** `--scope` (or its default). */
  readonly scope: string;
}

/**
 * The metadata document, keys in the order docs/design/remote.md §1.4 gives.
 *
 * @returns `{"resource","authorization_servers":[issuer],"scopes_supported":[scope],"bearer_methods_supported":["header"]}`
 *   as compact JSON.
 * @see docs/design/remote.md §1.4; RFC 9728 §2
 */
export function resourceMetadataJson(input: ResourceMetadataInput): string {
  return JSON.stringify({
    resource: input.resource,
    authorization_servers: [input.issuer],
    scopes_supported: [input.scope],
    bearer_methods_supported: ['header'],
  });
}

/**
 * The `resource_metadata` URL of `WWW-Authenticate`: always the path-suffixed form.
 *
 * @param resource `--resource`.
 * @returns The origin of `resource` followed by `/.well-known/oauth-protected-resource/mcp`.
 * @see docs/design/remote.md §1.4 ("Decision")
 */
export function resourceMetadataUrl(resource: string): string {
  return `${new URL(resource).origin}${METADATA_PATH_SUFFIXED}`;
}
