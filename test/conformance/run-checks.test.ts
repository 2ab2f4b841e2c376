// The conformance checks in-process (remote.md §2.2, §2.4): the runner's own connect and checks
// (`runConformance`, `connectClient`, `runChecks`) against the deliberately broken server on an
// in-memory transport. Each mode fails exactly the checks of its defect, and the reasons name
// what is wrong. The command around them (spawning, stderr, exit codes) is command.test.ts's.
import { describe, expect, test } from 'bun:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { runConformance } from '../../src/conformance/run-conformance.ts';
import type { CheckResult } from '../../src/conformance/check-result.ts';
import { connectClient } from '../../src/conformance/conformance-session.ts';
import { formatTextReport } from '../../src/conformance/format-report.ts';
import { BROKEN_MODES, createBrokenServer, type BrokenMode } from '../fakes/broken-mcp-server.ts';
import { CHECK_NAMES, parseReport } from './conformance-report.ts';

/** Runs every check against the broken server of `mode`, both ends in this process. */
async function checkMode(mode: BrokenMode): Promise<CheckResult[]> {
  return runConformance(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createBrokenServer(mode).connect(serverSide);
    return connectClient(clientSide, 'stdio');
  });
}

describe('conformance against the deliberately broken server (in-process)', () => {
  for (const mode of Object.keys(BROKEN_MODES) as BrokenMode[]) {
    const expected: readonly string[] = BROKEN_MODES[mode];
    test(`mode ${mode} fails exactly ${expected.length === 0 ? 'no check' : expected.join(', ')}`, async () => {
      const results = await checkMode(mode);
      const lines = parseReport(formatTextReport(results));
      expect(lines.filter((line) => line.status === 'FAIL').map((line) => line.name)).toEqual([...expected]);
      // The command exits 1 exactly when a check fails.
      expect(results.some((result) => result.status === 'FAIL')).toBe(expected.length > 0);
      if (mode === 'no-tools-capability') {
        expect(lines).toEqual([{ status: 'FAIL', name: 'connect', reason: 'the server does not declare the tools capability' }]);
      } else {
        expect(lines.map((line) => line.name)).toEqual([...CHECK_NAMES]);
      }
    });
  }

  test('a server without context_search: every check that calls it is SKIP, never PASS; unknown-tool still runs', async () => {
    const lines = parseReport(formatTextReport(await checkMode('no-context-search')));
    expect(lines.filter((line) => line.status === 'PASS').map((line) => line.name)).toEqual(['connect', 'unknown-tool']);
    const skipped = lines.filter((line) => line.status === 'SKIP');
    const calling = (name: string): boolean =>
      name.startsWith('input-vector: ') || ['extra-argument', 'search-result', 'output-valid', 'text-equals-structured', 'escaped-text', 'bounds', 'inert-items'].includes(name);
    expect(skipped.map((line) => line.name)).toEqual(CHECK_NAMES.filter(calling));
    for (const line of skipped) expect(line.reason).toBe('skipped: the server lists no context_search tool to call');
  });

  test('the reasons name what is wrong, quoting the server', async () => {
    const reasons = async (mode: BrokenMode): Promise<Record<string, string>> => {
      const results = await checkMode(mode);
      return Object.fromEntries(
        parseReport(formatTextReport(results))
          .filter((line) => line.status !== 'PASS')
          .map((line) => [line.name, line.reason]),
      );
    };
    expect(await reasons('read-only-hint')).toEqual({ annotations: 'annotations are {"destructiveHint":false,"readOnlyHint":true}, expected {"destructiveHint":false}' });
    expect(await reasons('unknown-tool-message')).toEqual({ 'unknown-tool': 'JSON-RPC error -32602 "Tool no_such_tool not found", expected -32602 "Unknown tool."' });
    expect(await reasons('six-items')).toEqual({
      'output-valid': 'structuredContent breaks the output contract at "/untrusted_external_context/items" (maxItems)',
      bounds: 'the envelope has 6 items, more than 5',
    });
    expect(await reasons('changed-output-schema')).toEqual({
      'output-schema': 'outputSchema differs from contracts/v1/context-search-output.schema.json at "/properties/untrusted_external_context/properties/items/maxItems"',
    });
    expect((await reasons('extra-property-accepted'))['extra-argument']).toBe('the input was not rejected with isError: true, expected "context_search accepts only the \\"query\\" argument."');
    const failing = await reasons('provider-fails');
    expect(failing).toEqual({
      'search-result': 'the provider behind the server failed: "External context search failed."',
      'output-valid': 'no successful result to examine',
      'text-equals-structured': 'no successful result to examine',
      'escaped-text': 'no successful result to examine',
      bounds: 'no successful result to examine',
      'inert-items': 'no successful result to examine',
    });
    expect(await reasons('raw-invisible')).toEqual({
      'escaped-text': 'the text differs from the escaped compact serialization of structuredContent',
      'inert-items': 'the text contains the raw invisible or control character U+E0049',
    });
  });
});
