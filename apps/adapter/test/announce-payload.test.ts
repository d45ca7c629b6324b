/**
 * The adapter's announce payload: a tool refused for its description is flagged in
 * `low_quality_schemas` (docs/translation.md §7), so the announce says why it is missing.
 */
import { Registry } from '@xprotocol/registry';
import type { Refusal } from '@xprotocol/translate';
import { describe, expect, it } from 'vitest';
import { announcePayload } from '../src/runtime/announce-payload.js';
import { base, load } from './config-helpers.js';

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
});
