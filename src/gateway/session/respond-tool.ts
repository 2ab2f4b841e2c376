// The `respond_frontend_tool_permission` tool the model calls with the user's answer to a
// pending writable operation (docs/design/frontend-mcp.md §9). Its name is reserved for gateway tools.
import type { GatewayToolDefinition } from '../gateway-tool.ts';

/** The reserved name of the permission tool. */
export const RESPOND_TOOL_NAME = 'respond_frontend_tool_permission';

/** Its exact description. */
export const RESPOND_TOOL_DESCRIPTION =
  "Record the user's answer to a pending external tool operation. Call it only after the user has answered in a new turn. Each allow runs only that one operation, once; it never allows later requests.";

/**
 * The model-visible definition: `authorization_id` and `decision` required, `decision` an enum,
 * no other properties.
 *
 * @returns A fresh definition object.
 * @see docs/design/frontend-mcp.md §9
 */
export function respondToolDefinition(): GatewayToolDefinition {
  return {
    type: 'function',
    function: {
      name: RESPOND_TOOL_NAME,
      description: RESPOND_TOOL_DESCRIPTION,
      parameters: {
        type: 'object',
        properties: {
          authorization_id: { type: 'string' },
          decision: { type: 'string', enum: ['allow', 'reject'] },
        },
        required: ['authorization_id', 'decision'],
        additionalProperties: false,
      },
    },
  };
}
