// The preset table and retired ids (providers.md §5.2, §5.3; config.md §4.2).
import { describe, expect, test } from 'bun:test';
import { isPresetId, PRESET_IDS, PRESETS, RETIRED_PRESETS, SCOPE_KEYS, SCOPE_WIRE_NAMES } from '../../src/config/presets.ts';

describe('presets', () => {
  test('PRESET_IDS lists exactly the three accepted presets in message order', () => {
    expect([...PRESET_IDS]).toEqual(['mem0-platform-v3', 'mem0-server-rest-2026-08', 'polardb-mysql-2026-08']);
    for (const id of PRESET_IDS) expect(PRESETS[id].id).toBe(id);
  });

  test('RETIRED_PRESETS maps each retired id to its replacement and no retired id is accepted', () => {
    expect(RETIRED_PRESETS).toEqual({
      'mem0-oss-rest-2026-08': 'mem0-server-rest-2026-08',
      'mem0-oss-2026-08': 'mem0-server-rest-2026-08',
      'aliyun-polardb-mysql-2026-08': 'polardb-mysql-2026-08',
      'mem0-v2': 'polardb-mysql-2026-08',
      'mem0-v3': 'mem0-platform-v3',
    });
    for (const id of Object.keys(RETIRED_PRESETS)) expect(isPresetId(id)).toBe(false);
  });

  test('isPresetId() accepts only the three ids', () => {
    for (const id of PRESET_IDS) expect(isPresetId(id)).toBe(true);
    for (const value of ['toString', '', 'MEM0-PLATFORM-V3', 1, null]) expect(isPresetId(value)).toBe(false);
  });

  test('scope requirements follow providers.md §5.3', () => {
    const requirements = Object.fromEntries(PRESET_IDS.map((id) => [id, SCOPE_KEYS.map((key) => PRESETS[id].scope[key].requirement)]));
    expect(requirements).toEqual({
      'mem0-platform-v3': ['absent', 'absent', 'required'],
      'mem0-server-rest-2026-08': ['required', 'optional', 'absent'],
      'polardb-mysql-2026-08': ['required', 'optional', 'absent'],
    });
    expect(SCOPE_WIRE_NAMES).toEqual({ userId: 'user_id', agentId: 'agent_id', appId: 'app_id' });
  });

  test('every preset defines a write mapping', () => {
    for (const id of PRESET_IDS) expect(PRESETS[id].writePath).toMatch(/^\//);
  });
});
