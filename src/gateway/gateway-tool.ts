// The record of one exposed tool (docs/design/frontend-mcp.md §3, step 4) and its definition digest, which
// binds approvals to the exact definition the user was asked about (§9).
import { canonicalSha256 } from './canonical-json.ts';
import type { FrontendMcpApproval } from './config/schema.ts';

/** The model-visible definition, in the function-tool shape of model APIs. */
export interface GatewayToolDefinition {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Readonly<Record<string, unknown>>;
  };
}

/** The execution policy of an exposed tool. */
export interface GatewayToolPolicy {
  readonly mode: 'inline';
  readonly readOnly: boolean;
  readonly approval: FrontendMcpApproval;
  /** Per-call timeout in milliseconds. */
  readonly timeoutMs: number;
  /** Budget of the serialized envelope in UTF-8 bytes. */
  readonly maxResultBytes: number;
  readonly maxCallsPerTurn: number;
}

/** A validated tool before it has its model-visible name. */
export interface ToolCandidate {
  readonly serverKey: string;
  readonly remoteName: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly policy: GatewayToolPolicy;
  /** The remote annotations, kept as metadata only. */
  readonly annotations?: Readonly<Record<string, unknown>>;
}

/** An exposed tool. */
export interface GatewayTool {
  readonly name: string;
  readonly serverKey: string;
  readonly remoteName: string;
  readonly definition: GatewayToolDefinition;
  readonly policy: GatewayToolPolicy;
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** Hex SHA-256 of the canonical JSON of the definition, remote name and annotations. */
  readonly digest: string;
}

/**
 * Gives a candidate its name and computes its definition digest.
 *
 * @param candidate The validated tool.
 * @param name Its model-visible name (assign-tool-names.ts).
 * @returns The exposed tool record.
 * @see docs/design/frontend-mcp.md §3, §9 (`tool_sha256`)
 */
export function finalizeTool(candidate: ToolCandidate, name: string): GatewayTool {
  const definition: GatewayToolDefinition = {
    type: 'function',
    function: { name, description: candidate.description, parameters: candidate.parameters },
  };
  const digest = canonicalSha256({ definition, remoteName: candidate.remoteName, policy: candidate.policy, annotations: candidate.annotations });
  const base = { name, serverKey: candidate.serverKey, remoteName: candidate.remoteName, definition, policy: candidate.policy, digest };
  return candidate.annotations === undefined ? base : { ...base, annotations: candidate.annotations };
}
