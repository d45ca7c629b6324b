/**
 * The JSON text of a stored event, written once: fan-out frames it for every matching
 * subscription (`relayMessage.eventJson`) and the SQLite store keeps the same text, so an event
 * delivered to 100 subscribers is serialized once, not 101 times.
 * @module
 */
import type { RelayEvent } from './store.js';

/** Texts by event object; an entry goes when its event does. */
const _texts = new WeakMap<RelayEvent, string>();

/** `JSON.stringify(event)`, computed on the first call for this event object. */
export function _eventJson(event: RelayEvent): string {
  let text = _texts.get(event);
  if (text === undefined) {
    text = JSON.stringify(event);
    _texts.set(event, text);
  }
  return text;
}
