// One tool policy of a server (docs/design/frontend-mcp.md §2.3, the tool rows, in table order).
import type { FrontendMcpApproval, FrontendMcpToolPolicy } from './config-types.ts';
import { displayKey } from './display-key.ts';
import { configInvalid } from '../frontend-mcp-error.ts';
import { isPlainObject } from '../../util/plain-object.ts';
import { policyInteger } from './policy-integer.ts';
import { hasAtMostCodePoints } from '../../util/code-points.ts';

/** The raw remote tool names a policy may be keyed by. */
const TOOL_NAME = /^[a-zA-Z0-9_.:/-]{1,128}$/;
/** Longest configured description, in Unicode code points. */
export const MAX_DESCRIPTION_CODE_POINTS = 1200;

/**
 * Validates one tool policy and applies its defaults.
 *
 * @param serverKey The server's key (already validated).
 * @param toolKey The policy's key: the server's raw tool name.
 * @param raw The policy value from the file.
 * @returns The normalized policy.
 * @throws {FrontendMcpError} `frontend_mcp_config_invalid` with the first failing rule's message.
 * @see docs/design/frontend-mcp.md §2.3
 */
export function validateToolPolicy(serverKey: string, toolKey: string, raw: unknown): FrontendMcpToolPolicy {
  if (!TOOL_NAME.test(toolKey)) throw configInvalid(`Invalid Frontend MCP tool name: ${displayKey(toolKey)}`);
  if (!isPlainObject(raw)) throw configInvalid('Frontend MCP tool policy must be an object.');
  const label = `${serverKey}/${displayKey(toolKey)}`;
  const enabled = raw['enabled'];
  if (enabled !== undefined && typeof enabled !== 'boolean') {
    throw configInvalid(`Frontend MCP tool ${label} enabled must be a boolean.`);
  }
  const isEnabled = enabled === true;
  const readOnly = raw['readOnly'];
  if (typeof readOnly !== 'boolean' && (isEnabled || readOnly !== undefined)) {
    throw configInvalid('Enabled Frontend MCP tools must explicitly declare readOnly.');
  }
  const approval = readApproval(raw['approval']);
  if (isEnabled && readOnly === false && approval !== 'required') {
    throw configInvalid('Writable Frontend MCP tools require approval=required.');
  }
  // Checked even for disabled tools: the combination is contradictory, whatever the switch.
  if (readOnly === true && approval === 'required') {
    throw configInvalid('Read-only Frontend MCP tools cannot require approval.');
  }
  const policy = {
    enabled: isEnabled,
    // A disabled policy without readOnly is treated as writable: the stricter reading.
    readOnly: readOnly === true,
    approval,
    timeoutMs: policyInteger(raw['timeoutMs'], 100, 30000, 8000),
    maxResultBytes: policyInteger(raw['maxResultBytes'], 1024, 65536, 32768),
    maxCallsPerTurn: policyInteger(raw['maxCallsPerTurn'], 1, 4, 2),
  };
  const description = readDescription(raw['description'], label);
  return description === undefined ? policy : { ...policy, description };
}

function readApproval(value: unknown): FrontendMcpApproval {
  if (value === undefined) return 'none';
  if (value === 'required' || value === 'none') return value;
  throw configInvalid('Frontend MCP tool approval must be "required" or "none".');
}

function readDescription(value: unknown, label: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw configInvalid(`Frontend MCP tool description must be a string: ${label}`);
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  // Decision: an over-long value is rejected, never cut silently (docs/design/frontend-mcp.md §2.3).
  if (!hasAtMostCodePoints(trimmed, MAX_DESCRIPTION_CODE_POINTS)) {
    throw configInvalid(`Frontend MCP tool description exceeds 1200 characters: ${label}`);
  }
  return trimmed;
}
