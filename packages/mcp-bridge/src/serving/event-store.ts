/**
 * The MCP face's memory of what it sent on each Streamable HTTP stream, so a client whose
 * connection dropped mid-call reconnects with `Last-Event-ID` and receives what it missed (the
 * SDK transport sends a priming event and a `retry` field when a store is present). One store per
 * session, bounded: the oldest events are forgotten past `maxEvents` or `maxBytes`, so a client
 * that never comes back costs a fixed amount of memory until its session ends.
 * @module
 */
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import { _serializedMessage } from './result-cap.js';

/** Bounds of {@link _faceEventStore}. */
export interface _FaceEventStoreLimits {
  /** Most events kept. Default 1000. */
  maxEvents?: number;
  /** Most bytes of serialized messages kept. Default 8 MiB. */
  maxBytes?: number;
}

/** A bounded in-memory {@link EventStore} for one face session. */
export function _faceEventStore(limits: _FaceEventStoreLimits = {}): EventStore {
  const maxEvents = limits.maxEvents ?? 1000;
  const maxBytes = limits.maxBytes ?? 8 * 1024 * 1024;
  /** Event id -> event, in the order stored (Map keeps insertion order). */
  const events = new Map<string, { streamId: string; message: JSONRPCMessage; bytes: number }>();
  let bytes = 0;
  let counter = 0;
  return {
    async storeEvent(streamId, message) {
      const eventId = `${streamId}_${++counter}`;
      const size = _serializedMessage(message).length;
      events.set(eventId, { streamId, message, bytes: size });
      bytes += size;
      for (const [id, event] of events) {
        if (events.size <= maxEvents && bytes <= maxBytes) break;
        events.delete(id);
        bytes -= event.bytes;
      }
      return eventId;
    },
    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const last = events.get(lastEventId);
      if (last === undefined) return '';
      let after = false;
      for (const [eventId, event] of [...events]) {
        if (eventId === lastEventId) after = true;
        else if (after && event.streamId === last.streamId) await send(eventId, event.message);
      }
      return last.streamId;
    },
  };
}
