import { expect, test } from 'bun:test';
import { configInvalid, FrontendMcpError } from '../../src/gateway/frontend-mcp-error.ts';

test('FrontendMcpError carries its code and name; configInvalid() uses frontend_mcp_config_invalid', () => {
  const error = configInvalid('Frontend MCP configuration version must be 1.');
  expect(error).toBeInstanceOf(FrontendMcpError);
  expect(error.name).toBe('FrontendMcpError');
  expect(error.code).toBe('frontend_mcp_config_invalid');
  expect(new FrontendMcpError('frontend_mcp_tool_aborted', 'm', { cause: 1 }).cause).toBe(1);
});
