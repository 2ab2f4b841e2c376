// validateFrontendMcpConfig(): every rule and exact message of frontend-mcp.md §2.3, in order,
// plus the normalized form of §2.4.
import { describe, expect, test } from 'bun:test';
import { FrontendMcpError } from '../../../src/gateway/frontend-mcp-error.ts';
import { validateFrontendMcpConfig, validateServer, validateToolPolicy } from '../../../src/gateway/config/validate-config.ts';
import { thrownBy } from '../../support/thrown-error.ts';

const CANARY = 'Bearer canary-secret-7f3a';
const ENV = { DOC_TOKEN: CANARY };

type Json = Record<string, any>;

/** A valid file: one enabled server with one read-only and one writable tool. */
function validFile(): Json {
  return {
    version: 1,
    servers: {
      documents: {
        enabled: true,
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: '${DOC_TOKEN}' },
        tools: {
          search: { enabled: true, readOnly: true },
          create_issue: { enabled: true, readOnly: false, approval: 'required' },
        },
      },
    },
  };
}

function messageOf(file: unknown, env: Record<string, string | undefined> = ENV): string {
  const error = thrownBy(FrontendMcpError, () => validateFrontendMcpConfig(file, env));
  expect(error.code).toBe('frontend_mcp_config_invalid');
  expect(error.message).not.toContain('canary');
  return error.message;
}

function mutated(change: (file: Json) => void): Json {
  const file = validFile();
  change(file);
  return file;
}

const doc = (file: Json): Json => file['servers']['documents'];
const search = (file: Json): Json => doc(file)['tools']['search'];

describe('validateFrontendMcpConfig() root rules', () => {
  test('rejects a root that is not an object', () => {
    for (const root of [null, [], 'x', 1]) expect(messageOf(root)).toBe('Frontend MCP configuration must be an object.');
  });
  test('rejects version 2, a missing version and the string "1"', () => {
    for (const version of [2, undefined, '1']) {
      expect(messageOf(mutated((file) => (file['version'] = version)))).toBe('Frontend MCP configuration version must be 1.');
    }
  });
  test('rejects unknown keys at every level with the dotted path', () => {
    expect(messageOf(mutated((file) => (file['extra'] = 1)))).toBe('Frontend MCP configuration contains an unknown field: extra');
    expect(messageOf(mutated((file) => (doc(file)['urll'] = 'x')))).toBe('Frontend MCP configuration contains an unknown field: servers.documents.urll');
    expect(messageOf(mutated((file) => (search(file)['readonly'] = true)))).toBe('Frontend MCP configuration contains an unknown field: servers.documents.tools.search.readonly');
  });
  test('prints a non-printable or over-long key as ?', () => {
    expect(messageOf(mutated((file) => (file['\u001bx'] = 1)))).toBe('Frontend MCP configuration contains an unknown field: ?');
    expect(messageOf(mutated((file) => (file['k'.repeat(65)] = 1)))).toBe('Frontend MCP configuration contains an unknown field: ?');
  });
  test('rejects servers that is not an object, and accepts it absent', () => {
    for (const servers of [[], null, 'x']) {
      expect(messageOf(mutated((file) => (file['servers'] = servers)))).toBe('Frontend MCP servers must be an object.');
    }
    expect(validateFrontendMcpConfig({ version: 1 }, {})).toEqual({ version: 1, servers: [] });
  });
  test('accepts 8 servers and rejects 9', () => {
    const servers = (count: number): Json => Object.fromEntries(Array.from({ length: count }, (_, index) => [`s${index}`, { url: 'https://example.com/mcp' }]));
    expect(validateFrontendMcpConfig({ version: 1, servers: servers(8) }, {}).servers).toHaveLength(8);
    expect(messageOf({ version: 1, servers: servers(9) })).toBe('Frontend MCP supports at most 8 servers.');
  });
});

describe('validateFrontendMcpConfig() server rules', () => {
  test('rejects invalid server keys', () => {
    for (const key of ['Docs', '1docs', 'd'.repeat(41), 'do cs', 'docs.x']) {
      const file = { version: 1, servers: { [key]: { url: 'https://example.com/mcp' } } };
      expect(messageOf(file)).toBe(`Invalid Frontend MCP server key: ${key}`);
    }
    expect(messageOf({ version: 1, servers: { 'd\u0000': {} } })).toBe('Invalid Frontend MCP server key: ?');
    expect(validateFrontendMcpConfig({ version: 1, servers: { ['d'.repeat(40)]: { url: 'https://e.com/' } } }, {}).servers).toHaveLength(1);
  });
  test('rejects a server that is not an object', () => {
    expect(messageOf(mutated((file) => (file['servers']['documents'] = true)))).toBe('Frontend MCP server documents must be an object.');
  });
  test('rejects a non-boolean enabled', () => {
    expect(messageOf(mutated((file) => (doc(file)['enabled'] = 'yes')))).toBe('Frontend MCP server documents enabled must be a boolean.');
  });
  test('rejects a missing, unparsable, non-string or over-long URL', () => {
    for (const url of [undefined, 'not a url', 42, `https://example.com/${'a'.repeat(2048)}`]) {
      expect(messageOf(mutated((file) => (doc(file)['url'] = url)))).toBe('Frontend MCP URL is invalid.');
    }
  });
  test('rejects credentials and any # in the URL', () => {
    for (const url of ['https://user:pw@example.com/mcp', 'https://user@example.com/mcp', 'https://example.com/mcp#x', 'https://example.com/mcp#']) {
      expect(messageOf(mutated((file) => (doc(file)['url'] = url)))).toBe('Frontend MCP URL must not contain credentials or a fragment.');
    }
  });
  test('requires HTTPS except header-less HTTP to loopback, including [::1]', () => {
    const https = 'Remote Frontend MCP requires HTTPS; local HTTP cannot carry headers.';
    expect(messageOf(mutated((file) => (doc(file)['url'] = 'http://example.com/mcp')))).toBe(https);
    expect(messageOf(mutated((file) => (doc(file)['url'] = 'http://127.0.0.1:8080/mcp')))).toBe(https);
    expect(messageOf(mutated((file) => (doc(file)['url'] = 'ws://localhost/mcp')))).toBe(https);
    for (const url of ['http://127.0.0.1:8080/mcp', 'http://localhost/mcp', 'http://[::1]:9000/mcp']) {
      const file = mutated((value) => {
        doc(value)['url'] = url;
        delete doc(value)['headers'];
      });
      expect(validateFrontendMcpConfig(file, {}).servers[0]?.transport.url).toBe(url);
    }
  });
  test('checks connectTimeoutMs as a strict integer 100-30000', () => {
    for (const value of [99, 30001, '5000', 5000.5, true]) {
      expect(messageOf(mutated((file) => (doc(file)['connectTimeoutMs'] = value)))).toBe('Frontend MCP policy value must be 100-30000.');
    }
    expect(
      validateFrontendMcpConfig(
        mutated((file) => (doc(file)['connectTimeoutMs'] = 100)),
        ENV,
      ).servers[0]?.connectTimeoutMs,
    ).toBe(100);
  });
  test('rejects a non-boolean refreshOnListChanged', () => {
    expect(messageOf(mutated((file) => (doc(file)['refreshOnListChanged'] = 'true')))).toBe('Frontend MCP server documents refreshOnListChanged must be a boolean.');
  });
});

describe('validateFrontendMcpConfig() header rules', () => {
  test('rejects headers that are not an object, or more than 16', () => {
    expect(messageOf(mutated((file) => (doc(file)['headers'] = [])))).toBe('Frontend MCP headers must be an object.');
    const many = Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`x-h${index}`, 'v']));
    expect(messageOf(mutated((file) => (doc(file)['headers'] = many)))).toBe('Frontend MCP has too many headers.');
  });
  test('rejects invalid, reserved and duplicate names and invalid values', () => {
    const invalid = 'Frontend MCP contains an invalid header.';
    for (const headers of [
      { 'x header': 'v' },
      { ['x'.repeat(81)]: 'v' },
      { Host: 'v' },
      { 'content-type': 'v' },
      { 'mcp-session-id': 'v' },
      { 'X-A': 'v', 'x-a': 'w' },
      { 'x-a': '' },
      { 'x-a': 7 },
      { 'x-a': 'a\nb' },
      { 'x-a': 'a\u007fb' },
    ]) {
      expect(messageOf(mutated((file) => (doc(file)['headers'] = headers)))).toBe(invalid);
    }
  });
  test('rejects a ${ that is not exactly one ${VARIABLE}, never sending it literally', () => {
    for (const value of ['Bearer ${DOC_TOKEN}', '${lower}', '${A}${B}', '${DOC_TOKEN']) {
      expect(messageOf(mutated((file) => (doc(file)['headers'] = { authorization: value })))).toBe('Frontend MCP header authorization must be a literal value or exactly one ${VARIABLE} reference.');
    }
  });
  test('resolves ${VAR} from the supplied environment with lowercased names', () => {
    const result = validateFrontendMcpConfig(
      mutated((file) => (doc(file)['headers'] = { Authorization: '${DOC_TOKEN}', 'X-Tab': 'a\tb' })),
      ENV,
    );
    expect(result.servers[0]?.transport.headers).toEqual({ authorization: CANARY, 'x-tab': 'a\tb' });
  });
  test('reports a missing, empty, inherited, over-long or control-character variable', () => {
    expect(messageOf(validFile(), {})).toBe('Frontend MCP environment variable is missing: DOC_TOKEN');
    expect(messageOf(validFile(), { DOC_TOKEN: '' })).toBe('Frontend MCP environment variable is missing: DOC_TOKEN');
    expect(messageOf(validFile(), Object.create({ DOC_TOKEN: CANARY }) as Record<string, string>)).toBe('Frontend MCP environment variable is missing: DOC_TOKEN');
    expect(messageOf(validFile(), { DOC_TOKEN: `canary${'x'.repeat(8193)}` })).toBe('Frontend MCP environment variable is too long: DOC_TOKEN');
    expect(messageOf(validFile(), { DOC_TOKEN: 'canary\r\nx-injected: 1' })).toBe('Frontend MCP contains an invalid header.');
  });
  test('does not resolve the variables of a disabled server', () => {
    const result = validateFrontendMcpConfig(
      mutated((file) => (doc(file)['enabled'] = false)),
      {},
    );
    expect(result.servers[0]?.enabled).toBe(false);
    expect(result.servers[0]?.transport.headers).toEqual({ authorization: '${DOC_TOKEN}' });
  });
});

describe('validateFrontendMcpConfig() tool rules', () => {
  test('rejects tools that are not an object, or more than 32 policies', () => {
    expect(messageOf(mutated((file) => (doc(file)['tools'] = [])))).toBe('Frontend MCP server documents tools must be an object.');
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`t${index}`, {}]));
    expect(messageOf(mutated((file) => (doc(file)['tools'] = many)))).toBe('Frontend MCP server documents has too many tool policies.');
  });
  test('rejects invalid tool names and accepts dotted, slashed and colon names', () => {
    expect(messageOf(mutated((file) => (doc(file)['tools'] = { 'bad name': {} })))).toBe('Invalid Frontend MCP tool name: bad name');
    expect(messageOf(mutated((file) => (doc(file)['tools'] = { ['t'.repeat(129)]: {} })))).toBe('Invalid Frontend MCP tool name: ?');
    const ok = validateFrontendMcpConfig(
      mutated((file) => (doc(file)['tools'] = { 'a.b/c:d-e_f': {}, __proto__x: {} })),
      ENV,
    );
    expect(Object.keys(ok.servers[0]?.tools ?? {})).toEqual(['a.b/c:d-e_f', '__proto__x']);
  });
  test('keeps a tool named __proto__ as a plain entry', () => {
    const file = JSON.parse('{"version":1,"servers":{"s":{"url":"https://e.com/","tools":{"__proto__":{"enabled":true,"readOnly":true}}}}}');
    const tools = validateFrontendMcpConfig(file, {}).servers[0]?.tools ?? {};
    expect(Object.hasOwn(tools, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
  });
  test('rejects a policy that is not an object', () => {
    expect(messageOf(mutated((file) => (doc(file)['tools']['search'] = true)))).toBe('Frontend MCP tool policy must be an object.');
  });
  test('rejects a non-boolean tool enabled', () => {
    expect(messageOf(mutated((file) => (search(file)['enabled'] = 1)))).toBe('Frontend MCP tool documents/search enabled must be a boolean.');
  });
  test('requires an explicit boolean readOnly for enabled tools, and a boolean when present', () => {
    const message = 'Enabled Frontend MCP tools must explicitly declare readOnly.';
    expect(messageOf(mutated((file) => delete search(file)['readOnly']))).toBe(message);
    expect(messageOf(mutated((file) => (doc(file)['tools']['off'] = { readOnly: 'true' })))).toBe(message);
    expect(
      validateFrontendMcpConfig(
        mutated((file) => (doc(file)['tools']['off'] = {})),
        ENV,
      ).servers[0]?.tools['off']?.enabled,
    ).toBe(false);
  });
  test('rejects an approval other than "required" or "none"', () => {
    expect(messageOf(mutated((file) => (search(file)['approval'] = 'always')))).toBe('Frontend MCP tool approval must be "required" or "none".');
  });
  test('requires approval=required for an enabled writable tool', () => {
    const message = 'Writable Frontend MCP tools require approval=required.';
    expect(messageOf(mutated((file) => delete doc(file)['tools']['create_issue']['approval']))).toBe(message);
    expect(messageOf(mutated((file) => (doc(file)['tools']['create_issue']['approval'] = 'none')))).toBe(message);
  });
  test('rejects a read-only tool that requires approval, even when disabled', () => {
    expect(messageOf(mutated((file) => (doc(file)['tools']['x'] = { enabled: false, readOnly: true, approval: 'required' })))).toBe('Read-only Frontend MCP tools cannot require approval.');
  });
  test('checks timeoutMs, maxResultBytes and maxCallsPerTurn as strict integers', () => {
    const cases: Array<[string, unknown, string]> = [
      ['timeoutMs', 31000, '100-30000'],
      ['timeoutMs', 99, '100-30000'],
      ['timeoutMs', '5000', '100-30000'],
      ['maxResultBytes', 1023, '1024-65536'],
      ['maxResultBytes', 65537, '1024-65536'],
      ['maxCallsPerTurn', 0, '1-4'],
      ['maxCallsPerTurn', 5, '1-4'],
      ['maxCallsPerTurn', '2', '1-4'],
    ];
    for (const [field, value, range] of cases) {
      expect(messageOf(mutated((file) => (search(file)[field] = value)))).toBe(`Frontend MCP policy value must be ${range}.`);
    }
  });
  test('bounds descriptions at 1200 code points, trims them and omits empty ones', () => {
    expect(messageOf(mutated((file) => (search(file)['description'] = 'd'.repeat(1201))))).toBe('Frontend MCP tool description exceeds 1200 characters: documents/search');
    const emoji = '😀'.repeat(1200);
    const kept = validateFrontendMcpConfig(
      mutated((file) => (search(file)['description'] = ` ${emoji} `)),
      ENV,
    );
    expect(kept.servers[0]?.tools['search']?.description).toBe(emoji);
    const empty = validateFrontendMcpConfig(
      mutated((file) => (search(file)['description'] = '   ')),
      ENV,
    );
    expect(empty.servers[0]?.tools['search']).not.toHaveProperty('description');
    expect(messageOf(mutated((file) => (search(file)['description'] = 5)))).toBe('Frontend MCP tool description must be a string: documents/search');
  });
});

describe('validateFrontendMcpConfig() normalized form', () => {
  test('applies the defaults 8000/32768/2, approval none and the server defaults', () => {
    expect(validateFrontendMcpConfig(validFile(), ENV)).toEqual({
      version: 1,
      servers: [
        {
          key: 'documents',
          enabled: true,
          connectTimeoutMs: 8000,
          refreshOnListChanged: false,
          transport: { type: 'streamable-http', url: 'https://mcp.example.com/mcp', headers: { authorization: CANARY } },
          tools: {
            search: { enabled: true, readOnly: true, approval: 'none', timeoutMs: 8000, maxResultBytes: 32768, maxCallsPerTurn: 2 },
            create_issue: { enabled: true, readOnly: false, approval: 'required', timeoutMs: 8000, maxResultBytes: 32768, maxCallsPerTurn: 2 },
          },
        },
      ],
    });
  });
  test('keeps servers in file order and stops at the first failure in that order', () => {
    const file = {
      version: 1,
      servers: { b: { url: 'https://b.example/' }, a: { url: 'https://a.example/' }, Bad: {}, c: { url: 'ftp://x' } },
    };
    expect(messageOf(file)).toBe('Invalid Frontend MCP server key: Bad');
    expect(validateFrontendMcpConfig({ version: 1, servers: { b: { url: 'https://b.example/' }, a: { url: 'https://a.example/' } } }, {}).servers.map((s) => s.key)).toEqual(['b', 'a']);
  });
});

describe('validateFrontendMcpConfig() unknown-key pre-pass', () => {
  test('accepts every defined field and leaves header and tool names alone', () => {
    expect(() =>
      validateFrontendMcpConfig(
        {
          version: 1,
          servers: {
            s: {
              enabled: true,
              url: 'https://e.com/mcp',
              connectTimeoutMs: 100,
              refreshOnListChanged: false,
              headers: { 'any-name': 'v' },
              tools: { anything: { enabled: true, readOnly: true, approval: 'none', timeoutMs: 100, maxResultBytes: 1024, maxCallsPerTurn: 1, description: 'd' } },
            },
          },
        },
        {},
      ),
    ).not.toThrow();
  });

  test('names the first unknown field by its path and leaves objects of the wrong type to the later checks', () => {
    expect(messageOf({ version: 1, servers: { s: { tools: { t: { readonly: true } } } } })).toBe('Frontend MCP configuration contains an unknown field: servers.s.tools.t.readonly');
    expect(messageOf({ version: 1, servers: { s: 'x', t: { tools: [] } } })).toBe('Frontend MCP server s must be an object.');
    expect(messageOf({ version: 1, servers: { t: { url: 'https://e.com/', tools: [] } } })).toBe('Frontend MCP server t tools must be an object.');
  });
});

describe('validateServer()', () => {
  test('resolves headers of an enabled server only', () => {
    const raw = { enabled: true, url: 'https://e.com/mcp', headers: { 'X-Key': '${K}' } };
    expect(validateServer('s', raw, { K: 'canary' }).transport.headers).toEqual({ 'x-key': 'canary' });
    expect(validateServer('s', { ...raw, enabled: false }, {}).transport.headers).toEqual({ 'x-key': '${K}' });
  });

  test('checks the URL before the timeouts and the headers', () => {
    expect(() => validateServer('s', { url: 'nope', connectTimeoutMs: 1, headers: [] }, {})).toThrow('Frontend MCP URL is invalid.');
    expect(() => validateServer('s', { url: 'https://e.com/', connectTimeoutMs: 1, headers: [] }, {})).toThrow('100-30000');
  });

  test('treats non-object headers as headers for the loopback HTTP rule', () => {
    expect(() => validateServer('s', { url: 'http://127.0.0.1/', headers: 'x' }, {})).toThrow('Remote Frontend MCP requires HTTPS');
    expect(validateServer('s', { url: 'http://127.0.0.1/', headers: {} }, {}).transport.url).toBe('http://127.0.0.1/');
  });
});

describe('validateToolPolicy()', () => {
  test('applies defaults to an enabled read-only tool', () => {
    expect(validateToolPolicy('s', 'search', { enabled: true, readOnly: true })).toEqual({
      enabled: true,
      readOnly: true,
      approval: 'none',
      timeoutMs: 8000,
      maxResultBytes: 32768,
      maxCallsPerTurn: 2,
    });
  });

  test('treats a disabled policy without readOnly as writable and disabled', () => {
    expect(validateToolPolicy('s', 't', {})).toMatchObject({ enabled: false, readOnly: false, approval: 'none' });
  });

  test('checks readOnly before approval, and approval before limits', () => {
    expect(() => validateToolPolicy('s', 't', { enabled: true, approval: 'bad', timeoutMs: 1 })).toThrow('Enabled Frontend MCP tools must explicitly declare readOnly.');
    expect(() => validateToolPolicy('s', 't', { enabled: true, readOnly: true, approval: 'bad', timeoutMs: 1 })).toThrow('Frontend MCP tool approval must be');
  });
});
