// resourceMetadataJson() and resourceMetadataUrl(): RFC 9728 metadata of remote.md §1.4.
import { describe, expect, test } from 'bun:test';
import { resourceMetadataJson, resourceMetadataUrl } from '../../../src/mcp/http/protected-resource-metadata.ts';

describe('resourceMetadataJson()', () => {
  test('writes the four keys in order with the values exactly as given', () => {
    expect(resourceMetadataJson({ resource: 'https://Context.example.com:8443/mcp', issuer: 'https://idp.example.com/t/1/', scope: 'kb:read' })).toBe(
      '{"resource":"https://Context.example.com:8443/mcp","authorization_servers":["https://idp.example.com/t/1/"],"scopes_supported":["kb:read"],"bearer_methods_supported":["header"]}',
    );
  });
});

describe('resourceMetadataUrl()', () => {
  test('is the origin of --resource followed by the path-suffixed well-known path', () => {
    expect(resourceMetadataUrl('https://context.example.com/mcp')).toBe('https://context.example.com/.well-known/oauth-protected-resource/mcp');
    expect(resourceMetadataUrl('http://127.0.0.1:8788/mcp')).toBe('http://127.0.0.1:8788/.well-known/oauth-protected-resource/mcp');
    expect(resourceMetadataUrl('https://context.example.com:443/mcp')).toBe('https://context.example.com/.well-known/oauth-protected-resource/mcp');
  });
});
