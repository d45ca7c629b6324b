import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assignMcpToolNames, contractToMcpTool, mcpToolBaseName, TranslateError } from '../src/index.js';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const KEY = `ed25519:${'ab'.repeat(32)}`;

describe('MCP tool names (docs/design.md §3, Direction 2)', () => {
  it('follows the seed examples', () => {
    expect(mcpToolBaseName({ kind: 'weather.current.get' }, 'weather_')).toBe('weather_current_get');
    expect(
      mcpToolBaseName(
        { kind: 'com.test.memory.read_graph', source: { namespace: 'com.test.memory' } },
        'mem_',
      ),
    ).toBe('mem_read_graph');
    expect(mcpToolBaseName({ kind: 'a.b-c.d' })).toBe('a_b-c_d');
    expect(mcpToolBaseName({ kind: 'com.x.tool', source: { namespace: 'com.y' } }, 'p_')).toBe(
      'p_com_x_tool',
    );
  });
  it('shortens names over 64 characters to 55 + "_" + 8 hex of SHA-256(endpoint key ‖ kind)', () => {
    const kind = `com.example.${'very_long_segment_'.repeat(4)}end`;
    const { names } = assignMcpToolNames([{ kind }], { endpointKey: KEY, sha256 });
    const name = names.get(kind) ?? '';
    const base = mcpToolBaseName({ kind });
    const hex = createHash('sha256').update(`${KEY}${kind}`).digest('hex').slice(0, 8);
    expect(name).toBe(`${base.slice(0, 55)}_${hex}`);
    expect(name).toHaveLength(64);
  });
  it('hashes a name taken by an earlier tool (kind order) or by another source', () => {
    const contracts = [
      { kind: 'b.x_y' },
      { kind: 'a.x.y', source: { namespace: 'a' } },
      { kind: 'b.x.y', source: { namespace: 'b' } },
    ];
    const { names, refused } = assignMcpToolNames(contracts, { endpointKey: KEY, sha256 });
    expect(refused).toEqual([]);
    expect(names.get('a.x.y')).toBe('x_y');
    expect(names.get('b.x.y')).toMatch(/^x_y_[0-9a-f]{8}$/);
    expect(names.get('b.x_y')).toBe('b_x_y');
    const taken = assignMcpToolNames([{ kind: 'a.x.y', source: { namespace: 'a' } }], {
      endpointKey: KEY,
      sha256,
      taken: new Set(['x_y']),
    });
    expect(taken.names.get('a.x.y')).toMatch(/^x_y_[0-9a-f]{8}$/);
  });
  it('keeps persisted names, so a refresh never renames a tool, and the result does not depend on input order', () => {
    const contracts = [{ kind: 'w.current.get' }, { kind: 'w.forecast.get' }];
    const persisted = new Map([['w.forecast.get', 'weather_fc']]);
    const one = assignMcpToolNames(contracts, { prefix: 'weather_', endpointKey: KEY, sha256, persisted });
    const two = assignMcpToolNames([...contracts].reverse(), {
      prefix: 'weather_',
      endpointKey: KEY,
      sha256,
      persisted,
    });
    expect(one).toEqual(two);
    expect(Object.fromEntries(one.names)).toEqual({
      'w.current.get': 'weather_w_current_get',
      'w.forecast.get': 'weather_fc',
    });
  });
  it('refuses invalid kinds and duplicates, and a prefix outside [A-Za-z0-9_-]', () => {
    const { refused } = assignMcpToolNames([{ kind: 'a..b' }, { kind: 'a.b' }, { kind: 'a.b' }], {
      endpointKey: KEY,
      sha256,
    });
    expect(refused.map((r) => r.kind)).toEqual(['a..b', 'a.b']);
    expect(() => assignMcpToolNames([], { prefix: 'bad prefix', endpointKey: KEY, sha256 })).toThrow(
      TranslateError,
    );
  });
});

describe('contract → MCP tool (docs/design.md §3)', () => {
  const contract = {
    kind: 'weather.current.get',
    description: 'Get current weather conditions for a location',
    payload: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'City name or coordinates' },
        units: { type: 'string', enum: ['metric', 'imperial'] },
      },
      required: ['location'],
    },
  };
  it('matches the seed example', () => {
    expect(
      contractToMcpTool(contract, { name: 'weather_current_get', endpoint: 'xp://weather.example.com' }),
    ).toEqual({
      ok: true,
      tool: {
        name: 'weather_current_get',
        description:
          'Get current weather conditions for a location\n\n[XProtocol: weather.current.get via xp://weather.example.com]',
        inputSchema: contract.payload,
      },
    });
  });
  it('carries title, annotations and an object outputSchema from source', () => {
    const r = contractToMcpTool(
      {
        ...contract,
        source: { title: 'Weather', annotations: { readOnlyHint: true }, outputSchema: { type: 'object' } },
      },
      { name: 'n', endpoint: KEY },
    );
    expect(r).toMatchObject({
      ok: true,
      tool: { title: 'Weather', annotations: { readOnlyHint: true }, outputSchema: { type: 'object' } },
    });
  });
  it('adds type "object" to a payload without a type and refuses other types', () => {
    const open = contractToMcpTool(
      { kind: 'a.b', payload: { $schema: 'http://json-schema.org/draft-07/schema#' } },
      { name: 'n', endpoint: KEY },
    );
    expect(open).toMatchObject({
      ok: true,
      tool: { inputSchema: { type: 'object', $schema: 'http://json-schema.org/draft-07/schema#' } },
    });
    expect(
      contractToMcpTool({ kind: 'a.b', payload: { type: 'string' } }, { name: 'n', endpoint: KEY }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('MCP tool arguments are an object') });
    expect(contractToMcpTool({ kind: 'a.b', payload: true }, { name: 'n', endpoint: KEY }).ok).toBe(false);
  });
});
