/**
 * Runs one case of testdata/vectors/xp-relay-frames.json against a relay, as the file's
 * `description` says: its steps in order on named connections, each reply compared exactly (or
 * by prefix), every reply read by this client's strict reader (docs/protocol.md §9). It imports
 * nothing from this repository.
 *
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { RelayConnection } from './connection.mjs';
import { readRelayMessage, retryAfter } from './relay-messages.mjs';
import { fillPlaceholders, randomTag, vectorEvent } from './vector-events.mjs';

/**
 * @param {string} url
 * @param {Record<string, unknown>} testCase one element of `cases`
 * @param {{ keys: Record<string, { secret_key: string }>, run: string, retention: number }} file
 * @returns {Promise<string[]>} the mismatches (empty when the relay did exactly what the case says)
 */
export async function runFrameCase(url, testCase, file) {
  /** @type {Record<string, string>} */
  let values = { run: file.run, live: randomTag() };
  const now = Math.floor(Date.now() / 1000);
  for (const [name, spec] of Object.entries(testCase.events ?? {})) {
    values = {
      ...values,
      ...vectorEvent(name, spec, { keys: file.keys, now, retention: file.retention, values }).values,
    };
  }
  /** @type {Map<string, RelayConnection>} */
  const connections = new Map();
  const problems = [];
  try {
    for (const [index, step] of testCase.steps.entries()) {
      if (step.wait_seconds !== undefined) {
        await sleep(step.wait_seconds * 1000);
        continue;
      }
      let conn = connections.get(step.conn);
      if (!conn) {
        conn = await RelayConnection.open(url);
        connections.set(step.conn, conn);
      }
      if (step.send !== undefined) {
        const text = fillPlaceholders(step.send, values);
        conn.send(step.binary ? Buffer.from(text, 'utf8') : text, { binary: step.binary === true });
      }
      if (step.send_padded) {
        const { prefix, fill, suffix, total_bytes: total } = step.send_padded;
        const fillBytes = total - Buffer.byteLength(prefix + suffix, 'utf8');
        conn.send(prefix + fill.repeat(fillBytes / Buffer.byteLength(fill, 'utf8')) + suffix);
      }
      for (const expected of step.expect ?? []) {
        const frame = await conn.next(30_000);
        const where = `step ${index}`;
        if (frame === null) {
          problems.push(`${where}: the relay closed the connection, expected ${JSON.stringify(expected)}`);
          break;
        }
        try {
          readRelayMessage(frame);
        } catch (err) {
          problems.push(`${where}: ${/** @type {Error} */ (err).message}: ${frame.slice(0, 200)}`);
        }
        if (typeof expected === 'string') {
          const want = fillPlaceholders(expected, values);
          if (frame !== want)
            problems.push(`${where}: got ${frame.slice(0, 300)}, expected ${want.slice(0, 300)}`);
        } else {
          const prefix = fillPlaceholders(expected.prefix, values);
          if (!frame.startsWith(prefix))
            problems.push(`${where}: got ${frame.slice(0, 300)}, expected a frame starting ${prefix}`);
          if (expected.retry_after && !(retryAfter(frame) >= 1))
            problems.push(`${where}: no "retry after N s" in ${frame}`);
        }
      }
      if (step.expect_close !== undefined) {
        const code = await conn.closed(30_000);
        if (code !== step.expect_close)
          problems.push(`step ${index}: closed with ${code}, expected ${step.expect_close}`);
      }
    }
  } finally {
    for (const conn of connections.values()) conn.close();
  }
  return problems;
}
