// The types of sealed-event.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * @typedef {{ ed25519: { publicKey: string, privateKey: import('node:crypto').KeyObject },
 *   x25519: { publicKey: string, privateKey: import('node:crypto').KeyObject } }} Identity
 */
/**
 * Seals a payload to a recipient (§6.3): tags p, x25519, e (answers), further tags, expiration.
 *
 * @param {Identity} sender
 * @param {{ ed25519: string, x25519: string }} recipient
 * @param {{ kind: string, created_at: number, payload?: unknown, plaintext?: string, replyTo?: string,
 *   expiration?: number, extraTags?: string[][], nonce?: Buffer }} input
 */
export function sealEvent(
  sender: Identity,
  recipient: {
    ed25519: string;
    x25519: string;
  },
  input: {
    kind: string;
    created_at: number;
    payload?: unknown;
    plaintext?: string;
    replyTo?: string;
    expiration?: number;
    extraTags?: string[][];
    nonce?: Buffer;
  },
): import('./event.mjs').XpEvent;
/**
 * The addressing step of §4 (3a): exactly one `p` tag of two elements naming `me`; exactly one
 * `x25519` tag of two elements with a well-formed key that is not of low order. Returns that key.
 *
 * @param {import('./event.mjs').XpEvent} event @param {string} me
 */
export function checkAddressing(event: import('./event.mjs').XpEvent, me: string): string;
/**
 * Opens a sealed event addressed to `me` (§6.3): verify (§4 steps 1–3), addressing (3a), decrypt.
 *
 * @param {unknown} value the parsed event
 * @param {Identity} me
 */
export function openEvent(
  value: unknown,
  me: Identity,
): {
  plaintext: string;
  nonce: Buffer<ArrayBuffer>;
  version: number;
  event: import('./event.mjs').XpEvent;
};
export type Identity = {
  ed25519: {
    publicKey: string;
    privateKey: import('node:crypto').KeyObject;
  };
  x25519: {
    publicKey: string;
    privateKey: import('node:crypto').KeyObject;
  };
};
