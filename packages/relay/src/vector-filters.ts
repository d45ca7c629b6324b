/**
 * Runs testdata/vectors/xp-relay-filters.json (docs/protocol.md §9.3) against a relay at a URL:
 * the table's events published once, then each `stored` case's REQ compared with the events the
 * relay sends before `EOSE`, in order, and each `live` case's subscription with the events it is
 * delivered afterwards.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { parseRelayMessage } from '@xprotocol/wire';
import { _VectorConnection } from './vector-connection.js';
import {
  _buildEvents,
  _fillValue,
  type VectorEventSpec,
  type VectorKey,
  type VectorScope,
} from './vector-events.js';
import { _shorten, type RelayVectorOptions, type RelayVectorResult } from './vector-frames.js';

/** An entry of a `stored` list: an event's name, or events sharing `created_at` (by id). */
export type StoredEntry = string | { tie: string[]; take?: number };

/** testdata/vectors/xp-relay-filters.json. */
export interface RelayFiltersFile {
  description: string;
  keys: Record<string, VectorKey>;
  events: Record<string, VectorEventSpec>;
  stored: { name: string; doc: string; filters: unknown[]; stored: StoredEntry[]; match: string[] }[];
  live_events: Record<string, VectorEventSpec>;
  live: { name: string; doc: string; filters: unknown[]; delivered: string[] }[];
}

/** Runs every case of the filters file; one result per case, never rejects. */
export async function runRelayFilterVectors(
  file: RelayFiltersFile,
  options: RelayVectorOptions,
): Promise<RelayVectorResult[]> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const scope: VectorScope = {
    nowSeconds: Math.floor(Date.now() / 1000),
    retentionSeconds: options.retentionSeconds ?? 3600,
    variables: { run: randomBytes(16).toString('hex') },
    events: new Map(),
  };
  const results: RelayVectorResult[] = [];
  let publisher: _VectorConnection | undefined;
  let subscriber: _VectorConnection | undefined;
  try {
    publisher = await _VectorConnection.open(options.url, timeoutMs);
    subscriber = await _VectorConnection.open(options.url, timeoutMs);
    _buildEvents(file.events, file.keys, scope);
    for (const name of Object.keys(file.events)) {
      const problem = await publish(publisher, scope, name, timeoutMs);
      if (problem) throw new Error(`publishing the table's event ${name}: ${problem}`);
    }
    for (const [index, testCase] of file.stored.entries()) {
      const verdict = { group: 'filters', name: testCase.name, doc: testCase.doc };
      const failure = await runStored(subscriber, scope, `f${index}`, testCase, timeoutMs);
      results.push(failure ? { ...verdict, status: 'fail', ...failure } : { ...verdict, status: 'pass' });
    }
    for (const [index, testCase] of file.live.entries()) {
      const verdict = { group: 'live', name: testCase.name, doc: testCase.doc };
      const liveScope = {
        ...scope,
        variables: { ...scope.variables, live: randomBytes(16).toString('hex') },
      };
      liveScope.events = new Map(scope.events);
      _buildEvents(file.live_events, file.keys, liveScope);
      const failure = await runLive(publisher, subscriber, liveScope, `l${index}`, testCase, timeoutMs);
      results.push(failure ? { ...verdict, status: 'fail', ...failure } : { ...verdict, status: 'pass' });
    }
  } catch (error) {
    const note = (error as Error).message;
    const done = new Set(results.map((result) => result.name));
    for (const testCase of [...file.stored, ...file.live]) {
      if (done.has(testCase.name)) continue;
      const group = file.stored.includes(testCase as never) ? 'filters' : 'live';
      results.push({ group, name: testCase.name, doc: testCase.doc, status: 'fail', note });
    }
  } finally {
    publisher?.close();
    subscriber?.close();
  }
  return results;
}

async function publish(
  connection: _VectorConnection,
  scope: VectorScope,
  name: string,
  timeoutMs: number,
): Promise<string | undefined> {
  const event = scope.events.get(name)!;
  await connection.send(`["EVENT",${event.text}]`);
  const expected = JSON.stringify(['OK', event.sent.id, true, '']);
  const reply = await connection.next(timeoutMs);
  return 'frame' in reply && reply.frame === expected
    ? undefined
    : `expected ${expected}, got ${describeReply(reply)}`;
}

type Failure = Pick<RelayVectorResult, 'sent' | 'received' | 'expected' | 'note'>;

async function runStored(
  subscriber: _VectorConnection,
  scope: VectorScope,
  subscriptionId: string,
  testCase: RelayFiltersFile['stored'][number],
  timeoutMs: number,
): Promise<Failure | undefined> {
  const sent = JSON.stringify(['REQ', subscriptionId, ...(_fillValue(testCase.filters, scope) as unknown[])]);
  await subscriber.send(sent);
  const expected = expandStored(testCase.stored, scope);
  const received = await readUntilEose(subscriber, subscriptionId, timeoutMs);
  const got = received.map((id) => nameOf(scope, id));
  await subscriber.send(`["CLOSE","${subscriptionId}"]`);
  if (got.join() === expected.join()) return undefined;
  return {
    sent: _shorten(sent),
    received: `${list(got)} then EOSE`,
    expected: `${list(expected)} then EOSE`,
  };
}

async function runLive(
  publisher: _VectorConnection,
  subscriber: _VectorConnection,
  scope: VectorScope,
  subscriptionId: string,
  testCase: RelayFiltersFile['live'][number],
  timeoutMs: number,
): Promise<Failure | undefined> {
  const sent = JSON.stringify(['REQ', subscriptionId, ...(_fillValue(testCase.filters, scope) as unknown[])]);
  await subscriber.send(sent);
  const early = await readUntilEose(subscriber, subscriptionId, timeoutMs);
  if (early.length > 0)
    return {
      sent,
      received: `${list(early.map((id) => nameOf(scope, id)))} before EOSE`,
      expected: 'EOSE at once',
    };
  const liveNames = Object.keys(liveSpecsOf(scope));
  for (const name of liveNames) {
    const problem = await publish(publisher, scope, name, timeoutMs);
    if (problem) return { sent, note: `publishing the live event ${name}: ${problem}` };
  }
  // A probe REQ: its EOSE comes after every EVENT already sent to this connection.
  await subscriber.send(`["REQ","probe-${subscriptionId}",{"ids":[]}]`);
  const got = (await readUntilEose(subscriber, `probe-${subscriptionId}`, timeoutMs)).map((id) =>
    nameOf(scope, id),
  );
  await subscriber.send(`["CLOSE","${subscriptionId}"]`);
  if (got.join() === testCase.delivered.join()) return undefined;
  return { sent, received: `live ${list(got)}`, expected: `live ${list(testCase.delivered)}` };
}

/** The names of the live events: the ones whose tags carry this case's `{live}` value. */
function liveSpecsOf(scope: VectorScope): Record<string, true> {
  const live = scope.variables.live;
  const names: Record<string, true> = {};
  for (const [name, event] of scope.events) {
    const tags = event.sent.tags as string[][];
    if (tags.some((tag) => tag[0] === 'e' && tag[1] === live)) names[name] = true;
  }
  return names;
}

/** The ids of the EVENT frames for `subscriptionId` up to its EOSE; throws on anything else. */
async function readUntilEose(
  connection: _VectorConnection,
  subscriptionId: string,
  timeoutMs: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const reply = await connection.next(timeoutMs);
    if (!('frame' in reply))
      throw new Error(`waiting for EOSE of ${subscriptionId}: got ${describeReply(reply)}`);
    const parsed = parseRelayMessage(reply.frame);
    const message = parsed.ok ? parsed.message : undefined;
    if (message?.type === 'EOSE' && message.subscriptionId === subscriptionId) return ids;
    if (message?.type === 'EVENT') {
      ids.push(String((message.event as { id?: unknown }).id));
      continue;
    }
    throw new Error(`waiting for EOSE of ${subscriptionId}: got ${_shorten(reply.frame)}`);
  }
}

function expandStored(entries: StoredEntry[], scope: VectorScope): string[] {
  return entries.flatMap((entry) => {
    if (typeof entry === 'string') return [entry];
    const byId = [...entry.tie].sort((a, b) => {
      const [x, y] = [String(scope.events.get(a)!.sent.id), String(scope.events.get(b)!.sent.id)];
      return x < y ? -1 : x > y ? 1 : 0;
    });
    return byId.slice(0, entry.take ?? byId.length);
  });
}

function nameOf(scope: VectorScope, id: string): string {
  for (const [name, event] of scope.events) if (event.sent.id === id) return name;
  return `an unknown event ${id.slice(0, 16)}…`;
}

function list(names: string[]): string {
  return names.length === 0 ? 'no event' : names.join(', ');
}

function describeReply(reply: Awaited<ReturnType<_VectorConnection['next']>>): string {
  return 'frame' in reply
    ? _shorten(reply.frame)
    : 'closed' in reply
      ? `close code ${reply.closed}`
      : 'nothing';
}
