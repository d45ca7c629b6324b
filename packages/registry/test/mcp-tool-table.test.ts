import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { McpToolTable, MemoryNameStore } from '../src/index.js';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const WEATHER_KEY = `ed25519:${'aa'.repeat(32)}`;
const MEM_KEY = `ed25519:${'bb'.repeat(32)}`;
const payload = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] };
const weather = [
  { kind: 'weather.current.get', description: 'Get current weather conditions for a location', payload },
  { kind: 'weather.forecast.get', description: 'Get the forecast', payload },
  { kind: 'weather.admin.reset', description: 'Reset', payload },
];
const WEATHER = {
  name: 'weather-service',
  type: 'xprotocol' as const,
  endpoint: 'xp://weather.example.com',
  endpointKey: WEATHER_KEY,
  prefix: 'weather_',
  schemaFilter: ['weather.current.get', 'weather.forecast.get'],
};

describe('MCP tool table (docs/design.md §10, §3)', () => {
  it('names, describes and resolves the seed weather example; schema_filter applies', async () => {
    const table = new McpToolTable({ sha256 });
    const update = await table.setSource(WEATHER, weather);
    expect(update.changed).toBe(true);
    expect(update.tools.map((t) => t.name)).toEqual(['weather_current_get', 'weather_forecast_get']);
    expect(update.tools[0]?.description).toBe(
      'Get current weather conditions for a location\n\n[XProtocol: weather.current.get via xp://weather.example.com]',
    );
    expect(table.resolve('weather_current_get')).toMatchObject({
      source: 'weather-service',
      type: 'xprotocol',
      endpointKey: WEATHER_KEY,
      kind: 'weather.current.get',
    });
    expect(table.resolve('weather_admin_reset')).toBeUndefined();
    expect((await table.setSource(WEATHER, [...weather].reverse())).changed).toBe(false);
  });
  it('lists no prompt or resource-template contract as a tool (docs/protocol.md §10.11)', async () => {
    const table = new McpToolTable({ sha256 });
    const ns = { namespace: 'com.test.notes' };
    const update = await table.setSource({ ...WEATHER, prefix: 'n_', schemaFilter: [] }, [
      { kind: 'com.test.notes.read_note', description: 'Read a note', payload, source: ns },
      { kind: 'com.test.notes.prompt.summarize', description: 'Summarize', payload, source: ns },
      { kind: 'com.test.notes.resource.note', description: 'A note', payload, source: ns },
      { kind: 'com.test.notes.prompt_', description: 'A tool named prompt', payload, source: ns },
      {
        kind: 'other.summary',
        description: 'Named by source',
        payload,
        source: { mcp_prompt: 'summary' } as { namespace?: string },
      },
    ]);
    expect(update.tools.map((t) => t.name)).toEqual(['n_prompt_', 'n_read_note']);
    expect(update.refused).toEqual([]);
  });
  it('reports a change of a tool that keeps its name (description, schema), and only then', async () => {
    const table = new McpToolTable({ sha256 });
    await table.setSource(WEATHER, weather);
    const described = weather.map((c, i) => (i === 0 ? { ...c, description: 'Current conditions' } : c));
    expect((await table.setSource(WEATHER, described)).changed).toBe(true);
    expect((await table.setSource(WEATHER, described)).changed).toBe(false);
    const required = { ...payload, required: [] };
    const reshaped = described.map((c, i) => (i === 1 ? { ...c, payload: required } : c));
    expect((await table.setSource(WEATHER, reshaped)).changed).toBe(true);
    expect(table.list().find((t) => t.name === 'weather_forecast_get')?.inputSchema).toMatchObject({
      required: [],
    });
  });
  it('strips the declared namespace (mem_ + com.test.memory.read_graph → mem_read_graph) and hashes collisions across sources', async () => {
    const table = new McpToolTable({ sha256 });
    await table.setSource(
      { name: 'memory', type: 'xprotocol', endpoint: MEM_KEY, endpointKey: MEM_KEY, prefix: 'mem_' },
      [
        {
          kind: 'com.test.memory.read_graph',
          payload: { type: 'object' },
          source: { namespace: 'com.test.memory' },
        },
      ],
    );
    const other = await table.setSource(
      {
        name: 'other',
        type: 'xprotocol',
        endpoint: 'xp://o.example',
        endpointKey: WEATHER_KEY,
        prefix: 'mem_',
      },
      [{ kind: 'com.other.read_graph', payload: { type: 'object' }, source: { namespace: 'com.other' } }],
    );
    expect(table.list().map((t) => t.name)).toEqual(['mem_read_graph', other.tools[0]?.name]);
    const expected = createHash('sha256')
      .update(`${WEATHER_KEY}com.other.read_graph`)
      .digest('hex')
      .slice(0, 8);
    expect(other.tools[0]?.name).toBe(`mem_read_graph_${expected}`);
  });
  it('keeps assigned names across refreshes and restarts (NameStore)', async () => {
    const names = new MemoryNameStore();
    const first = new McpToolTable({ sha256, nameStore: names });
    await first.setSource({ ...WEATHER, schemaFilter: [] }, [weather[1] as (typeof weather)[number]]);
    expect(first.list().map((t) => t.name)).toEqual(['weather_forecast_get']);
    // a restart where another source now holds a base name: the persisted name is kept
    const second = new McpToolTable({ sha256, nameStore: names });
    await second.setSource({ name: 'x', type: 'mcp', endpoint: 'self', endpointKey: MEM_KEY }, [
      { kind: 'x.weather_current_get', payload: { type: 'object' }, source: { namespace: 'x' } },
    ]);
    const update = await second.setSource({ ...WEATHER, schemaFilter: [] }, weather);
    expect(update.tools.map((t) => t.name)).toContain('weather_forecast_get');
    expect(update.tools.map((t) => t.name).filter((n) => n.startsWith('weather_current_get_'))).toHaveLength(
      1,
    );
    expect(names.load('weather-service').get('weather.forecast.get')).toBe('weather_forecast_get');
  });
  it('reports contracts that cannot be MCP tools and removes sources', async () => {
    const table = new McpToolTable({ sha256 });
    const update = await table.setSource(
      { name: 's', type: 'xprotocol', endpoint: 'xp://s', endpointKey: MEM_KEY },
      [{ kind: 's.str', payload: { type: 'string' } }],
    );
    expect(update.refused).toMatchObject([
      { kind: 's.str', reason: expect.stringContaining('MCP tool arguments are an object') },
    ]);
    expect(table.removeSource('s')).toBe(false);
    await table.setSource(WEATHER, weather);
    expect(table.removeSource('weather-service')).toBe(true);
    expect(table.list()).toEqual([]);
  });
});
