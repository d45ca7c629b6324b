/**
 * The suite's two profiles (docs/conformance.md, "Native endpoints"): `adapter`, the spec's checks
 * of an adapter that wraps the suite's test MCP server, and `native`, the checks that apply to
 * any endpoint serving tools of its own, which the suite discovers from its catalog.
 * @module
 */
import type { XpEvent } from '@xprotocol/crypto';

/** A profile: which checks apply. */
export type Profile = 'adapter' | 'native';

/** The values `--profile` takes. */
export const PROFILE_CHOICES = ['auto', 'adapter', 'native'] as const;

/**
 * The profile an announce points to: `native` when it discloses no MCP server (`mcp_sources`
 * empty: nothing the adapter checks could call), `adapter` otherwise, and for an announce whose
 * content cannot be read (the trust check then says why).
 */
export function profileOf(announce: XpEvent): Profile {
  try {
    const sources = (JSON.parse(announce.content) as { mcp_sources?: unknown }).mcp_sources;
    return Array.isArray(sources) && sources.length === 0 ? 'native' : 'adapter';
  } catch {
    return 'adapter';
  }
}
