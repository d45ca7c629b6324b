/**
 * Whether the adapter whose status record `xprotocol-adapter status` read is running
 * (docs/cli.md, "status"), and the record as `status --json` prints it. Running means: the record
 * does not say it stopped, its pid is alive, and it was written within {@link STATUS_STALE_MS}
 * (a running adapter rewrites it every few seconds). Anything else is not running, with why.
 * @module
 */
import type { StatusRecord } from '@xprotocol/mcp-bridge';
import { STATUS_STALE_MS, type StatusSnapshot } from '../runtime/status-snapshot.js';

/** A record whose snapshot is the adapter's. */
export type AdapterStatusRecord = StatusRecord & { snapshot: StatusSnapshot };

/** What `status` concludes. */
export type StatusVerdict =
  | { running: true; record: AdapterStatusRecord }
  | {
      running: false;
      /** `stopped`: a clean stop; `pid_gone`: it ended without one; `stale`: its pid lives but it wrote nothing. */
      reason: 'stopped' | 'pid_gone' | 'stale';
      record: AdapterStatusRecord;
    }
  | {
      running: false;
      /** No adapter has run with this config: no key file, no state database, or no record in it. */
      reason: 'never_ran';
      why: string;
    };

/** Judges `record` at `nowMs`; `alive` tells whether a pid is a live process. */
export function judgeStatus(
  record: AdapterStatusRecord,
  nowMs: number,
  alive: (pid: number) => boolean,
): StatusVerdict {
  if (record.stoppedAt !== undefined) return { running: false, reason: 'stopped', record };
  if (!alive(record.pid)) return { running: false, reason: 'pid_gone', record };
  if (nowMs - record.writtenAt > STATUS_STALE_MS) return { running: false, reason: 'stale', record };
  return { running: true, record };
}

/** Whether `pid` is a live process (one this user may not signal counts: it exists). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `status --json`: the verdict, where the record is, the pid and times, then the snapshot. */
export function statusJson(verdict: StatusVerdict, stateDatabase: string | null): Record<string, unknown> {
  if (!('record' in verdict)) {
    return { running: false, reason: verdict.reason, why: verdict.why, state_database: stateDatabase };
  }
  const { record } = verdict;
  return {
    running: verdict.running,
    ...(!verdict.running && { reason: verdict.reason }),
    state_database: stateDatabase,
    pid: record.pid,
    started_at: new Date(record.startedAt).toISOString(),
    written_at: new Date(record.writtenAt).toISOString(),
    stopped_at: record.stoppedAt === undefined ? null : new Date(record.stoppedAt).toISOString(),
    ...record.snapshot,
  };
}
