// buildProbeBody() and classifyRawAnswer(): the raw probe request bodies (providers.md §5.4 key
// order) and the reduction of an answer to ids or a detail (probe.md §2).
import { describe, expect, test } from 'bun:test';
import { PRESETS, type PresetId, type ScopeKey } from '../../src/config/presets.ts';
import type { ProbeTarget } from '../../src/probe/probe-target.ts';
import { buildProbeBody, classifyRawAnswer } from '../../src/probe/raw-search.ts';

function target(preset: PresetId, scope: Partial<Record<ScopeKey, string>>): ProbeTarget {
  return {
    preset: PRESETS[preset],
    searchUrl: 'https://m.example/search',
    writeUrl: 'https://m.example/memories',
    scope,
    credential: 'k',
    origin: 'https://m.example',
    openApiUrl: 'https://m.example/openapi.json',
    proxy: { mode: 'direct' },
  };
}

describe('buildProbeBody()', () => {
  const polardb = target('polardb-mysql-2026-08', { userId: 'u1', agentId: 'a1' });
  const keys = ['userId', 'agentId'] as const;

  test('places every key under filters, at the root, or in both, in the order user_id, agent_id', () => {
    expect(buildProbeBody(polardb, keys, 'filters')).toBe('{"query":"deployment policy","top_k":5,"filters":{"user_id":"u1","agent_id":"a1"}}');
    expect(buildProbeBody(polardb, keys, 'root')).toBe('{"query":"deployment policy","top_k":5,"user_id":"u1","agent_id":"a1"}');
    expect(buildProbeBody(polardb, keys, 'both')).toBe('{"query":"deployment policy","top_k":5,"user_id":"u1","agent_id":"a1","filters":{"user_id":"u1","agent_id":"a1"}}');
  });

  test('the unknown field comes last; the Platform fixed options follow the limit field', () => {
    const platform = target('mem0-platform-v3', { appId: 'repo' });
    expect(buildProbeBody(platform, ['appId'], 'filters', true)).toBe(
      '{"query":"deployment policy","top_k":5,"threshold":0.1,"rerank":false,"filters":{"app_id":"repo"},"__qwen_preset_probe_unused__":1}',
    );
  });
});

describe('classifyRawAnswer()', () => {
  test('2xx with results: sorted, de-duplicated string ids only', () => {
    const body = JSON.stringify({ results: [{ id: 'b' }, { id: 'a' }, { id: 'b' }, { id: 7 }, null, 'x', { memory: 'no id' }] });
    expect(classifyRawAnswer(200, body, 'k')).toEqual({ status: 200, ids: ['a', 'b'], detail: undefined });
    expect(classifyRawAnswer(201, '{"results":[]}', 'k')).toEqual({ status: 201, ids: [], detail: undefined });
  });

  test('2xx without results, not JSON, or unreadable; non-2xx bodies are sanitized', () => {
    expect(classifyRawAnswer(200, '{"results":{}}', 'k').detail).toBe('response had no results array');
    expect(classifyRawAnswer(200, '[]', 'k').detail).toBe('response had no results array');
    expect(classifyRawAnswer(200, '', 'k').detail).toBe('response was not valid JSON');
    expect(classifyRawAnswer(200, undefined, 'k').detail).toBe('response body was unreadable');
    expect(classifyRawAnswer(413, undefined, 'k')).toEqual({ status: 413, ids: undefined, detail: 'response body was unreadable' });
    expect(classifyRawAnswer(422, '{"detail":\n [ "secret-k" ]}', 'secret-k')).toEqual({
      status: 422,
      ids: undefined,
      detail: '{"detail": [ "[redacted]" ]}',
    });
  });
});
