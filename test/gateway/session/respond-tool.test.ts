import Ajv from 'ajv';
import { expect, test } from 'bun:test';
import { RESPOND_TOOL_DESCRIPTION, respondToolDefinition } from '../../../src/gateway/session/respond-tool.ts';

test('respondToolDefinition() requires exactly authorization_id and an allow/reject decision', () => {
  const definition = respondToolDefinition();
  expect(definition.function.name).toBe('respond_frontend_tool_permission');
  expect(definition.function.description).toBe(RESPOND_TOOL_DESCRIPTION);
  const validate = new Ajv().compile(definition.function.parameters);
  expect(validate({ authorization_id: 'frontend_auth_x', decision: 'allow' })).toBe(true);
  expect(validate({ authorization_id: 'frontend_auth_x', decision: 'always' })).toBe(false);
  expect(validate({ authorization_id: 'frontend_auth_x' })).toBe(false);
  expect(validate({ authorization_id: 'x', decision: 'allow', arguments: {} })).toBe(false);
});
