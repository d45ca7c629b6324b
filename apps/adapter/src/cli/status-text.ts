/**
 * `xprotocol-adapter status` for people (docs/cli.md, "status"): the first line says whether the
 * adapter runs (pid, uptime, how old the snapshot is) or why not; then its key, delegation chain,
 * sources, relays, calls and last errors, as the running adapter reported them. Text that came
 * from outside — a server's error, a caller's kind, a refusal's message — is shown with every
 * character that could act on the terminal escaped, one line each.
 * @module
 */
import { escapeForDisplay } from '@xprotocol/mcp-bridge';
import type { StatusSnapshot } from '../runtime/status-snapshot.js';
import type { AdapterStatusRecord, StatusVerdict } from './status-verdict.js';

/** The text `status` prints for `verdict`, read from `stateDatabase`, at `nowMs`. */
export function statusText(verdict: StatusVerdict, stateDatabase: string, nowMs: number): string {
  if (!('record' in verdict))
    return `not running (no adapter has run with this config: ${_show(verdict.why)})\n`;
  const { record } = verdict;
  const lines = [_headline(verdict, nowMs)];
  if (verdict.running) lines.push(..._details(record.snapshot, stateDatabase, nowMs));
  else if (record.snapshot.errors.length > 0) lines.push(..._problems(record.snapshot));
  return `${lines.join('\n')}\n`;
}

/** `running: …` or `not running (…)`. */
function _headline(verdict: StatusVerdict & { record: AdapterStatusRecord }, nowMs: number): string {
  const { record } = verdict;
  const seen = _duration(nowMs - record.writtenAt);
  if (verdict.running) {
    const phase = record.snapshot.phase === 'ready' ? '' : ` (${record.snapshot.phase})`;
    return `running${phase}: pid ${record.pid}, up ${_duration(nowMs - record.startedAt)} (since ${new Date(record.startedAt).toISOString()}), last report ${seen} ago`;
  }
  if (verdict.reason === 'stopped')
    return `not running (stopped ${_duration(nowMs - record.stoppedAt!)} ago, pid ${record.pid})`;
  if (verdict.reason === 'pid_gone') return `not running (last seen ${seen} ago, pid ${record.pid} gone)`;
  return `not running (last seen ${seen} ago; pid ${record.pid} exists but wrote nothing since: stuck, or the pid is another process's now)`;
}

/** Everything below the headline of a running adapter. */
function _details(snapshot: StatusSnapshot, stateDatabase: string, nowMs: number): string[] {
  const lines = [
    `key: ${snapshot.key ?? 'none (a pure MCP gateway has no identity)'}`,
    `chain: ${_chain(snapshot.chain, nowMs)}`,
    `state database: ${stateDatabase}`,
  ];
  lines.push(snapshot.sources.length === 0 ? 'mcp sources: none' : 'mcp sources:');
  for (const s of snapshot.sources) {
    const where = s.url === null ? s.transport : `${s.transport} ${s.url}`;
    const waiting = s.waiting_approval > 0 ? `, ${s.waiting_approval} waiting for approval` : '';
    lines.push(
      `  ${_show(s.name)} (${_show(where)}): ${s.connected ? 'connected' : 'not connected'}, ${s.tools} tools${waiting}${_lastError(s.last_error)}`,
    );
  }
  if (snapshot.xprotocol_sources.length > 0) lines.push('xprotocol sources:');
  for (const s of snapshot.xprotocol_sources)
    lines.push(`  ${_show(s.name)}: ${s.tools} tools${_lastError(s.last_error)}`);
  if (snapshot.mode !== 'mcp_gateway') lines.push(snapshot.relays.length === 0 ? 'relays: none' : 'relays:');
  for (const r of snapshot.relays)
    lines.push(
      `  ${_show(r.url)}: ${r.connected ? 'connected' : 'not connected'}${_lastError(r.last_error)}`,
    );
  const { calls } = snapshot;
  const codes = Object.entries(calls.refused_by_code)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([code, count]) => `${_show(code)} ${count}`);
  lines.push(
    `calls since start: ${calls.served} served, ${calls.refused} refused${codes.length > 0 ? ` (${codes.join(', ')})` : ''}, ${calls.dropped} dropped`,
  );
  if (calls.last_refused.length > 0) lines.push('last refused:');
  for (const r of calls.last_refused)
    lines.push(`  ${r.at} ${_show(r.kind)} ${_show(r.code)}: ${_show(r.message)}`);
  lines.push(..._problems(snapshot));
  return lines;
}

/** `last errors:` and one line each; nothing when there are none. */
function _problems(snapshot: StatusSnapshot): string[] {
  if (snapshot.errors.length === 0) return [];
  return [
    'last errors:',
    ...snapshot.errors.map((p) => {
      const about = [p.source, p.relay, p.kind, p.code].filter((part) => part !== undefined);
      return `  ${[p.at, p.level, ...about.map(_show)].join(' ')}: ${_show(p.message)}`;
    }),
  ];
}

function _chain(chain: StatusSnapshot['chain'], nowMs: number): string {
  if (chain === null) return 'no chain';
  const left = Date.parse(chain.expires_at) - nowMs;
  const when = left >= 0 ? `in ${_duration(left)}` : `expired ${_duration(-left)} ago`;
  return `${chain.links} link${chain.links === 1 ? '' : 's'} from root ${_show(chain.root)}, capabilities ${chain.capabilities.map(_show).join(', ')}; expires ${chain.expires_at} (${when})`;
}

function _lastError(error: string | null): string {
  return error === null ? '' : `; last error: ${_show(error)}`;
}

/** `ms` for people: `12 s`, `2 min 5 s`, `3 h 10 min`, `10 d` or `2 d 4 h`. */
function _duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  return hours === 0 ? `${days} d` : `${days} d ${hours} h`;
}

/** Text from outside on one line, nothing in it acting on the terminal. */
function _show(text: string): string {
  return escapeForDisplay(text.replace(/\r?\n/g, '\\n'));
}
