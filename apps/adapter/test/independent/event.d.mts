// The types of event.mjs, generated from its JSDoc (tsc --allowJs --declaration --emitDeclarationOnly).
/**
 * The id preimage of §2.3.
 *
 * @param {{ pubkey: string, created_at: number, kind: string, tags: string[][], content: string }} e
 */
export function idPreimage(e: {
  pubkey: string;
  created_at: number;
  kind: string;
  tags: string[][];
  content: string;
}): string;
/** @param {Parameters<typeof idPreimage>[0]} e */
export function eventId(e: Parameters<typeof idPreimage>[0]): string;
/**
 * The wire JSON of §2.4: the seven fields in the table's order, no whitespace.
 *
 * @param {Record<string, unknown>} event
 */
export function eventJson(event: Record<string, unknown>): string;
/**
 * Signs an event (§2.3, §3); refuses one over 4 MiB (§2.4).
 *
 * @param {{ privateKey: import('node:crypto').KeyObject, publicKey: string }} identity
 * @param {{ created_at: number, kind: string, tags: string[][], content: string }} fields
 * @param {{ allowOversize?: boolean }} [options] `allowOversize` only to test a verifier's refusal
 * @returns {XpEvent}
 */
export function signEvent(
  identity: {
    privateKey: import('node:crypto').KeyObject;
    publicKey: string;
  },
  fields: {
    created_at: number;
    kind: string;
    tags: string[][];
    content: string;
  },
  options?: {
    allowOversize?: boolean;
  },
): XpEvent;
/**
 * Step 1 of §4 (the table of §2.2 and the tag rules at the shape step, then §2.4's size).
 *
 * @param {unknown} value
 */
export function checkShape(value: unknown): XpEvent;
/**
 * Steps 1–3 of §4 on a parsed event: shape and size, id, signature. Returns the event.
 *
 * @param {unknown} value
 * @returns {XpEvent}
 */
export function verifyEvent(value: unknown): XpEvent;
/**
 * Reads an event's JSON text as §2.2 says, then steps 1–3 of §4.
 *
 * @param {string} text
 */
export function readEventText(text: string): XpEvent;
/**
 * The values of the tags named `name` (each tag whole).
 *
 * @param {XpEvent} event
 * @param {string} name
 */
export function tagsNamed(event: XpEvent, name: string): string[][];
/** The seven fields of an event, in the order §2.4 measures its size in. */
export const EVENT_FIELDS: string[];
/** The largest event, in UTF-8 bytes of its JSON (§2.4). */
export const MAX_EVENT_BYTES: 4194304;
/** A refusal at one step of §4 (`shape`, `size`, `id` or `signature`). */
export class EventRefused extends RuleError {
  /**
   * @param {'shape' | 'size' | 'id' | 'signature'} code
   * @param {string} rule
   * @param {string} message
   * @param {string | null} [precheck]
   */
  constructor(
    code: 'shape' | 'size' | 'id' | 'signature',
    rule: string,
    message: string,
    precheck?: string | null,
  );
  code: 'id' | 'shape' | 'size' | 'signature';
  precheck: string;
}
export type XpEvent = {
  id: string;
  pubkey: string;
  created_at: number;
  kind: string;
  tags: string[][];
  content: string;
  sig: string;
};

import { RuleError } from './canonical-json.mjs';
