// A minimal, valid announce payload for tests that only need an endpoint to be resolvable.
import type { Identity } from '@xprotocol/crypto';
import type { AnnouncePayload } from '@xprotocol/registry';

/** An announce payload naming `identity`'s X25519 key, with no sources. */
export function testAnnouncePayload(
  identity: Identity,
  relays: readonly string[],
  displayName: string,
): AnnouncePayload {
  return {
    display_name: displayName,
    adapter_version: '0.0.0-test',
    x25519: identity.keys.x25519,
    relays: [...relays],
    mcp_sources: [],
    xprotocol_sources: [],
    counts: {
      mcp_sources: 0,
      xprotocol_sources: 0,
      schemas: 0,
      tools: 0,
      prompts: 0,
      low_quality_schemas: 0,
    },
    low_quality_schemas: [],
  };
}
