/**
 * What the adapter keeps of one source's OAuth grant, and where (docs/security.md, "OAuth to
 * upstream servers"): the types shared by the provider, the code flow and the sealed store.
 * @module
 */
import type { OAuthClient, OAuthTokens } from './oauth-token-request.js';

/** What is stored for one source after a grant: enough to refresh without asking anything again. */
export interface StoredGrant {
  /** The server URL the grant is for; a grant for another URL is never used. */
  serverUrl: string;
  issuer: string;
  resource: string;
  tokenEndpoint: string;
  /** The client the tokens were issued to (a registered one included). */
  client: OAuthClient;
  tokens: OAuthTokens;
  /** The scope asked for when the grant was made (a step-up asks for it and the new one). */
  scope?: string;
}

/** Where grants are kept between runs (the state database, encrypted). */
export interface UpstreamTokenStore {
  load(source: string): Promise<StoredGrant | undefined>;
  save(source: string, grant: StoredGrant): Promise<void>;
}
