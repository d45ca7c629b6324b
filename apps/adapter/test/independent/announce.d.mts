// The types of announce.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * Verifies and reads one announce event (§10.3).
 *
 * @param {unknown} value the parsed event
 * @returns {{ event: import('./event.mjs').XpEvent, payload: AnnouncePayload }}
 */
export function readAnnounce(value: unknown): {
  event: import('./event.mjs').XpEvent;
  payload: AnnouncePayload;
};
/**
 * Which announce a caller reads (§10.3): the latest `created_at`, then the smallest id; that one
 * only, even when it is refused.
 *
 * @param {unknown[]} announces parsed events as the relays sent them
 * @returns {{ event: import('./event.mjs').XpEvent, payload: AnnouncePayload }}
 */
export function chooseAnnounce(announces: unknown[]): {
  event: import('./event.mjs').XpEvent;
  payload: AnnouncePayload;
};
export type AnnouncePayload = {
  display_name: string;
  adapter_version: string;
  x25519: string;
  relays: string[];
  mcp_sources: {
    name: string;
    transport: string;
    namespace: string;
    tool_count: number;
    prompt_count: number;
  }[];
  [field: string]: unknown;
};
