#!/usr/bin/env node
// A deliberately broken relay, for the tests of `xprotocol-conformance relay`: a WebSocket proxy
// on 127.0.0.1 in front of a real relay that gets exactly one rule of docs/protocol.md §9 wrong,
// so that exactly one relay check must fail. It prints its ws:// URL on stdout, then serves.
//
//   node broken-relay.mjs MODE UPSTREAM_URL
//
// MODE is one of:
//   freshness-before-dedupe  an EVENT older than the retention (3600 s) is refused as stale
//                            before the relay can say it already holds it (§9.1 steps 7 and 8
//                            swapped): the duplicates check fails
//   kinds-prefix             `kinds` match by prefix (`com.example` matches `com.example.note`):
//                            the filters check fails
//   notice-without-id        an EVENT without a string id is answered NOTICE instead of
//                            OK "" false invalid: (§9.1): the event-checks check fails
import { WebSocket, WebSocketServer } from 'ws';

const MODES = ['freshness-before-dedupe', 'kinds-prefix', 'notice-without-id'];
const [mode, upstreamUrl] = process.argv.slice(2);
if (!MODES.includes(mode) || !upstreamUrl) {
  process.stderr.write(`broken-relay: expected MODE (${MODES.join(', ')}) and UPSTREAM_URL\n`);
  process.exit(2);
}

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 16 * 1024 * 1024 });
server.on('listening', () => process.stdout.write(`ws://127.0.0.1:${server.address().port}\n`));
server.on('connection', (client) => {
  const upstream = new WebSocket(upstreamUrl, { maxPayload: 16 * 1024 * 1024 });
  const waiting = [];
  // Subscription id → the filters as the client sent them (kinds-prefix matches them itself).
  const wanted = new Map();
  const toUpstream = (data, isBinary) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
    else waiting.push([data, isBinary]);
  };
  upstream.on('open', () => {
    for (const [data, isBinary] of waiting.splice(0)) upstream.send(data, { binary: isBinary });
  });
  upstream.on('message', (data, isBinary) => {
    const text = data.toString();
    if (!isBinary && mode === 'kinds-prefix' && !deliverable(text, wanted)) return;
    client.send(isBinary ? data : text, { binary: isBinary });
  });
  upstream.on('close', (code) => client.close(code === 1005 || code === 1006 ? 1000 : code));
  upstream.on('error', () => client.terminate());
  client.on('message', (data, isBinary) => {
    const frame = isBinary ? undefined : parse(data.toString());
    const answer = frame ? broken(frame, wanted) : undefined;
    if (answer === undefined) toUpstream(data, isBinary);
    else if (answer !== null) client.send(answer);
    else toUpstream(JSON.stringify(frame), false);
  });
  client.on('close', (code) => upstream.close(code === 1009 ? 1000 : undefined));
  client.on('error', () => upstream.terminate());
});

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// The broken rule: a frame to answer in the relay's place, null to forward `frame` as rewritten,
// undefined to forward the frame untouched.
function broken(frame, wanted) {
  if (!Array.isArray(frame)) return undefined;
  const [type, event] = frame;
  if (mode === 'notice-without-id' && type === 'EVENT' && frame.length === 2) {
    if (event === null || typeof event !== 'object' || typeof event.id !== 'string') {
      return JSON.stringify(['NOTICE', 'invalid: the event has no id']);
    }
  }
  if (
    mode === 'freshness-before-dedupe' &&
    type === 'EVENT' &&
    event &&
    typeof event.created_at === 'number'
  ) {
    if (event.created_at < Math.floor(Date.now() / 1000) - 3600) {
      return JSON.stringify([
        'OK',
        String(event.id),
        false,
        'invalid: created_at is older than the retention',
      ]);
    }
  }
  if (mode === 'kinds-prefix' && type === 'REQ' && typeof frame[1] === 'string') {
    const filters = frame.slice(2);
    const plain = filters.every((f) => f && typeof f === 'object' && !Array.isArray(f));
    const kindsOk =
      plain &&
      filters.every(
        (f) =>
          f.kinds === undefined || (Array.isArray(f.kinds) && f.kinds.every((k) => typeof k === 'string')),
      );
    if (!kindsOk) return undefined;
    // Without kinds there is nothing to break: the frame goes on byte for byte (re-serialising it
    // would hide what the relay must refuse in its text, such as a member name given twice).
    if (filters.every((f) => f.kinds === undefined)) {
      wanted.delete(frame[1]);
      return undefined;
    }
    wanted.set(frame[1], filters);
    for (let i = 2; i < frame.length; i++) {
      const { kinds, ...rest } = frame[i];
      frame[i] = rest;
    }
    return null;
  }
  if (mode === 'kinds-prefix' && type === 'CLOSE') wanted.delete(frame[1]);
  return undefined;
}

// kinds-prefix: an EVENT for a subscription is delivered only when some filter the client sent
// matches it, kinds compared by prefix; the relay matched everything else already, but for a
// filter with its kinds removed, so every field is checked again here.
function deliverable(text, wanted) {
  const frame = parse(text);
  if (!Array.isArray(frame) || frame[0] !== 'EVENT' || !wanted.has(frame[1])) return true;
  const event = frame[2];
  return wanted.get(frame[1]).some((filter) => matches(event, filter));
}

function matches(event, filter) {
  const tagged = (name, values) => event.tags.some((tag) => tag[0] === name && values.includes(tag[1]));
  if (filter.ids && !filter.ids.includes(event.id)) return false;
  if (filter.authors && !filter.authors.includes(event.pubkey)) return false;
  if (filter.kinds && !filter.kinds.some((kind) => event.kind.startsWith(kind))) return false;
  if (filter.since !== undefined && event.created_at < filter.since) return false;
  if (filter.until !== undefined && event.created_at > filter.until) return false;
  if (filter['#p'] && !tagged('p', filter['#p'])) return false;
  if (filter['#e'] && !tagged('e', filter['#e'])) return false;
  return true;
}
