/**
 * The adapter's announce payload: a tool refused for its description is flagged in
 * `low_quality_schemas` (docs/translation.md §7), so the announce says why it is missing; an
 * OpenAPI service is disclosed in `served_sources` with its transport and counted in `counts`.
 */
import { Registry } from '@xprotocol/registry';
import { type Refusal, translateSource } from '@xprotocol/translate';
import { describe, expect, it } from 'vitest';
import { announcePayload } from '../src/runtime/announce-payload.js';
import { base, load, yaml } from './config-helpers.js';

const KEYS = { x25519: `x25519:${'0c'.repeat(32)}`, relays: ['ws://127.0.0.1:8765'] };

describe('announcePayload', () => {
  const { config } = load(base());
  const source = config.mcpSources[0]!;
  const refusal: Refusal = {
    tool: 'thing',
    entry: 'tool',
    code: 'LOW_QUALITY',
    reason: 'description quality 0.00 is below the floor 0.20',
    kind: `${source.namespace}.thing`,
    description_quality_score: 0,
  };

  it('flags a tool refused below the quality floor', () => {
    const payload = announcePayload(
      config,
      new Registry(),
      KEYS,
      new Map(),
      new Map([[source.name, [refusal]]]),
    );
    expect(payload.low_quality_schemas).toContainEqual({
      kind: `${source.namespace}.thing`,
      description_quality_score: 0,
      issue: `Not published: ${refusal.reason}`,
    });
  });

  it('flags nothing when the source refused nothing', () => {
    const payload = announcePayload(config, new Registry(), KEYS, new Map());
    expect(payload.low_quality_schemas).toEqual([]);
  });

  it('discloses an OpenAPI source as served_sources with transport openapi, and counts its tools', async () => {
    const { config: withOpenApi } = load(
      yaml(
        'identity:',
        '  key_file: ./adapter.key',
        'relay:',
        '  urls: [ws://127.0.0.1:8765]',
        'openapi_sources:',
        '  - name: pets',
        '    document: specs/petstore.yaml',
        '    xprotocol_namespace: com.test.pets',
        '    base_url: http://127.0.0.1:9000/api/v3',
      ),
    );
    const registry = new Registry();
    const tool = (name: string) => ({
      name,
      description: `Find a pet by its id and return its name, status and tags (${name}).`,
      inputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    });
    const translation = translateSource({
      name: 'pets',
      namespace: 'com.test.pets',
      tools: [tool('getPetById'), tool('findPet')],
      adapterVersion: '0.1.0',
    });
    await registry.refreshSource('pets', translation.contracts);
    const payload = announcePayload(withOpenApi, registry, KEYS, new Map());
    expect(payload.mcp_sources).toEqual([]);
    expect(payload.served_sources).toEqual([
      {
        name: 'pets',
        transport: 'openapi',
        url: 'http://127.0.0.1:9000/api/v3',
        namespace: 'com.test.pets',
        tool_count: 2,
        prompt_count: 0,
      },
    ]);
    expect(payload.counts).toMatchObject({ mcp_sources: 0, schemas: 2, tools: 2, prompts: 0 });
  });

  it('has no served_sources field without an OpenAPI source', () => {
    expect(announcePayload(config, new Registry(), KEYS, new Map())).not.toHaveProperty('served_sources');
  });
});
