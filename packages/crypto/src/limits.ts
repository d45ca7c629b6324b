/**
 * Size limits of the wire format (docs/protocol.md §2). A limit is part of the protocol: a signer
 * refuses to produce what every verifier refuses to accept.
 * @module
 */

/**
 * The largest event, in UTF-8 bytes of its JSON serialization (`JSON.stringify` of the seven
 * fields), that is signed or accepted: 4 MiB. A sealed event of this size carries about 2.9 MiB
 * of plaintext.
 */
export const MAX_EVENT_BYTES: number = 4 * 1024 * 1024;

/** The deepest nesting of arrays and objects {@link canonicalJson} serializes. */
export const MAX_JSON_DEPTH: number = 512;
