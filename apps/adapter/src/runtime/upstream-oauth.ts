/**
 * The OAuth client of one `mcp_sources` entry with `auth.type: oauth` (docs/config.md, docs/security.md,
 * "OAuth to upstream servers"): built from the entry, the address policy every metadata URL is
 * fetched through, and the store of grants (the state database, sealed with a key derived from
 * the adapter's own). Without a store (a pure MCP gateway has no identity to derive the key
 * from), client credentials still work, kept in memory.
 * @module
 */
import { chmodSync, existsSync } from 'node:fs';
import {
  type StateDatabase,
  sealedGrantStore,
  UpstreamOAuth,
  type UpstreamTokenStore,
} from '@xprotocol/mcp-bridge';
import type { AddressPolicy } from '@xprotocol/relay-client';
import type { McpSourceConfig } from '../config/index.js';

/** The OAuth client of `source`, or `undefined` when it does not use OAuth. */
export function upstreamOAuthOf(
  source: McpSourceConfig,
  addressPolicy: AddressPolicy | undefined,
  store: UpstreamTokenStore | undefined,
): UpstreamOAuth | undefined {
  const oauth = source.oauth;
  if (!oauth || source.url === undefined) return undefined;
  return new UpstreamOAuth({
    source: source.name,
    serverUrl: source.url,
    grant: oauth.grant,
    ...(oauth.clientId !== undefined && {
      client: {
        clientId: oauth.clientId,
        ...(oauth.clientSecret !== undefined && { clientSecret: oauth.clientSecret }),
      },
    }),
    ...(oauth.scope !== undefined && { scope: oauth.scope }),
    ...(oauth.clientMetadataUrl !== undefined && { clientMetadataUrl: oauth.clientMetadataUrl }),
    allowInsecureLoopback: oauth.allowInsecureLoopback,
    ...(addressPolicy && { addressPolicy }),
    ...(store && { store }),
  });
}

/**
 * The grant store of the state database `state`, sealed with a key derived from `secretKey` (the
 * adapter's X25519 secret key). Each save also makes the database file and its WAL files readable
 * by the owner only (0600): they now hold tokens.
 */
export function upstreamGrantStore(state: StateDatabase, secretKey: Uint8Array): UpstreamTokenStore {
  return sealedGrantStore(
    {
      upstreamGrant: (source) => state.upstreamGrant(source),
      saveUpstreamGrant: (source, sealed) => {
        state.saveUpstreamGrant(source, sealed);
        if (state.path === ':memory:') return;
        for (const suffix of ['', '-wal', '-shm'])
          if (existsSync(state.path + suffix)) chmodSync(state.path + suffix, 0o600);
      },
    },
    secretKey,
  );
}
