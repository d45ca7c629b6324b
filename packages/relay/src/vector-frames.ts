/**
 * Runs one case of testdata/vectors/xp-relay-frames.json (docs/protocol.md §9.1–§9.3) against a
 * relay at a URL: its events signed now, its frames sent on its own connections, and every frame
 * the relay replies compared with the expected one — exactly, or by its reason prefix. Used by the
 * relay's own tests and by `xprotocol-conformance relay`, so both judge a relay the same way.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { parseRelayMessage } from '@xprotocol/wire';
import { _VectorConnection } from './vector-connection.js';
import {
  _buildEvents,
  _fillPlaceholders,
  type VectorEventSpec,
  type VectorKey,
  type VectorScope,
} from './vector-events.js';

/** An expected reply: the exact frame, or a frame starting with `prefix`. */
export type ExpectedFrame = string | { prefix: string; retry_after?: boolean };

/** One step of a frames case (the file's description says what each member does). */
export interface FrameStep {
  conn?: string;
  send?: string;
  binary?: boolean;
  send_padded?: { prefix: string; fill: string; suffix: string; total_bytes: number };
  expect?: ExpectedFrame[];
  expect_close?: number;
  wait_seconds?: number;
}

/** One case of the frames file. */
export interface FrameCase {
  group: string;
  name: string;
  doc: string;
  events?: Record<string, VectorEventSpec>;
  steps: FrameStep[];
  /** Limits the relay must have been started with (else the case is skipped). */
  requires?: Record<string, number>;
}

/** testdata/vectors/xp-relay-frames.json. */
export interface RelayFramesFile {
  description: string;
  keys: Record<string, VectorKey>;
  cases: FrameCase[];
}

/** How to reach and judge the relay under test. */
export interface RelayVectorOptions {
  /** `ws://host:port` of the relay. */
  url: string;
  /** The relay's retention in seconds (its freshness window). Default 3600. */
  retentionSeconds?: number;
  /** The relay's limits, for cases that require one (`events_per_minute_per_key` …). */
  limits?: Readonly<Record<string, number>>;
  /** How long to wait for each expected frame, in ms. Default 5000. */
  timeoutMs?: number;
}

/** The verdict on one vector case; a failure says what was sent, received and expected. */
export interface RelayVectorResult {
  group: string;
  name: string;
  doc: string;
  status: 'pass' | 'fail' | 'skip';
  /** Why it failed or was skipped. */
  note?: string;
  sent?: string;
  received?: string;
  expected?: string;
}

/** Runs one frames case; never rejects (a relay that cannot be reached fails the case). */
export async function runRelayFrameCase(
  file: RelayFramesFile,
  testCase: FrameCase,
  options: RelayVectorOptions,
): Promise<RelayVectorResult> {
  const verdict = { group: testCase.group, name: testCase.name, doc: testCase.doc };
  const missing = Object.entries(testCase.requires ?? {}).filter(
    ([limit, value]) => options.limits?.[limit] !== value,
  );
  if (missing.length > 0) {
    const needs = missing.map(([limit, value]) => `${limit} = ${value}`).join(', ');
    return { ...verdict, status: 'skip', note: `needs a relay started with ${needs}` };
  }
  const connections = new Map<string, _VectorConnection>();
  try {
    const scope: VectorScope = {
      nowSeconds: Math.floor(Date.now() / 1000),
      retentionSeconds: options.retentionSeconds ?? 3600,
      variables: { run: randomBytes(16).toString('hex'), live: randomBytes(16).toString('hex') },
      events: new Map(),
    };
    _buildEvents(testCase.events ?? {}, file.keys, scope);
    for (const step of testCase.steps) {
      const failure = await runStep(step, scope, connections, options);
      if (failure) return { ...verdict, status: 'fail', ...failure };
    }
    return { ...verdict, status: 'pass' };
  } catch (error) {
    return { ...verdict, status: 'fail', note: (error as Error).message };
  } finally {
    for (const connection of connections.values()) connection.close();
  }
}

type StepFailure = Omit<RelayVectorResult, 'group' | 'name' | 'doc' | 'status'>;

async function runStep(
  step: FrameStep,
  scope: VectorScope,
  connections: Map<string, _VectorConnection>,
  options: RelayVectorOptions,
): Promise<StepFailure | undefined> {
  const timeoutMs = options.timeoutMs ?? 5000;
  if (step.wait_seconds !== undefined)
    await new Promise((resolve) => setTimeout(resolve, step.wait_seconds! * 1000));
  if (step.conn === undefined) return undefined;
  let connection = connections.get(step.conn);
  if (!connection) {
    connection = await _VectorConnection.open(options.url, timeoutMs);
    connections.set(step.conn, connection);
  }
  const sent = frameOf(step, scope);
  if (sent !== undefined) await connection.send(sent, step.binary === true);
  const shown =
    sent === undefined ? `(nothing sent; reading connection ${step.conn})` : _shorten(sent.toString());
  for (const expected of step.expect ?? []) {
    const wanted = fillExpected(expected, scope);
    const reply = await connection.next(timeoutMs);
    const received =
      'frame' in reply
        ? reply.frame
        : 'closed' in reply
          ? `(connection closed, code ${reply.closed})`
          : '(nothing)';
    if ('frame' in reply && _matches(reply.frame, wanted)) continue;
    return { sent: shown, received: _shorten(received), expected: describe(wanted) };
  }
  if (step.expect_close !== undefined) {
    const reply = await connection.next(timeoutMs);
    if (!('closed' in reply) || reply.closed !== step.expect_close) {
      const received =
        'frame' in reply
          ? _shorten(reply.frame)
          : 'closed' in reply
            ? `close code ${reply.closed}`
            : '(nothing)';
      return { sent: shown, received, expected: `the connection closed with code ${step.expect_close}` };
    }
  }
  return undefined;
}

function frameOf(step: FrameStep, scope: VectorScope): string | Buffer | undefined {
  if (step.send !== undefined) {
    const text = _fillPlaceholders(step.send, scope);
    return step.binary ? Buffer.from(text) : text;
  }
  const padded = step.send_padded;
  if (!padded) return undefined;
  const fixed = Buffer.byteLength(padded.prefix) + Buffer.byteLength(padded.suffix);
  return `${padded.prefix}${padded.fill.repeat(padded.total_bytes - fixed)}${padded.suffix}`;
}

function fillExpected(expected: ExpectedFrame, scope: VectorScope): ExpectedFrame {
  if (typeof expected === 'string') return _fillPlaceholders(expected, scope);
  return { ...expected, prefix: _fillPlaceholders(expected.prefix, scope) };
}

/** True when `frame` is the expected reply. */
export function _matches(frame: string, expected: ExpectedFrame): boolean {
  if (typeof expected === 'string') return frame === expected;
  if (!frame.startsWith(expected.prefix) || !parseRelayMessage(frame).ok) return false;
  return !expected.retry_after || /retry after [1-9][0-9]* s/.test(frame);
}

function describe(expected: ExpectedFrame): string {
  if (typeof expected === 'string') return _shorten(expected);
  const hint = expected.retry_after ? ', with "retry after N s" in its reason' : '';
  return `a frame starting ${_shorten(expected.prefix)}…${hint}`;
}

/** A frame as a report shows it: long ones cut in the middle. */
export function _shorten(text: string): string {
  return text.length <= 400 ? text : `${text.slice(0, 300)}…(${text.length} characters)…${text.slice(-60)}`;
}
