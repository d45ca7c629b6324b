/**
 * Grants at rest (docs/security.md, "OAuth to upstream servers"): each source's grant (its tokens,
 * the client they were issued to, the endpoint to refresh at) is sealed with AES-256-GCM under a
 * key derived with HKDF-SHA256 from the adapter's own secret key, the source's name bound as
 * associated data (a row copied to another source does not open). The rows themselves live in the
 * state database; this file only seals and opens them.
 * @module
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { BridgeError } from '../errors.js';
import type { StoredGrant, UpstreamTokenStore } from './oauth-grant.js';

/** Where the sealed rows are read and written (the state database's `upstream_grants`). */
export interface SealedRows {
  upstreamGrant(source: string): string | undefined;
  saveUpstreamGrant(source: string, sealed: string): void;
}

const _INFO = 'xprotocol-adapter upstream oauth grants v1';

/** An {@link UpstreamTokenStore} over `rows`, sealed with a key derived from `secretKey`. */
export function sealedGrantStore(rows: SealedRows, secretKey: Uint8Array): UpstreamTokenStore {
  const key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), _INFO, 32));
  return {
    load: async (source) => {
      const sealed = rows.upstreamGrant(source);
      return sealed === undefined ? undefined : _open(sealed, key, source);
    },
    save: async (source, grant) => rows.saveUpstreamGrant(source, _seal(grant, key, source)),
  };
}

function _seal(grant: StoredGrant, key: Buffer, source: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(source, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(grant), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function _open(sealed: string, key: Buffer, source: string): StoredGrant {
  const bytes = Buffer.from(sealed, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(source, 'utf8'));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as StoredGrant;
  } catch {
    throw new BridgeError(
      'STATE_DATABASE',
      `MCP source "${source}": the stored OAuth grant cannot be opened with this adapter's key (another key file?); run \`xprotocol-adapter login ${source}\` again`,
    );
  }
}
