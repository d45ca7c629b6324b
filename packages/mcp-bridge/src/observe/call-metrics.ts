/**
 * The call series of docs/operating.md, fed by {@link CallObserver}: calls by path, source, tool
 * and outcome, their latency, and refusals by reason. Labels stay bounded: a tool or source no
 * catalog knows is counted under `other`, and past {@link MAX_TOOL_LABELS} distinct tools every
 * new one is too, so a caller cannot grow the series by inventing names.
 * @module
 */

import type { MetricRegistry } from '@xprotocol/wire/admin';
import type { CallObserver, CallRecord } from './call-observer.js';

/** The label a tool or source no catalog knows is counted under. */
const OTHER_LABEL = 'other';
/** Distinct tool label values kept before new ones are counted under `other`. */
const MAX_TOOL_LABELS = 2000;

/** Latency buckets, in seconds: 5 ms to 60 s. */
const LATENCY_BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The metric names, prefixed by the program that serves them. */
interface CallMetricNames {
  calls: string;
  duration: string;
  refusals: string;
}

/** The names under `prefix` (e.g. `xprotocol_adapter`). */
function callMetricNames(prefix: string): CallMetricNames {
  return {
    calls: `${prefix}_calls_total`,
    duration: `${prefix}_call_duration_seconds`,
    refusals: `${prefix}_refusals_total`,
  };
}

/** Counts calls into `registry`. */
export class CallMetrics implements CallObserver {
  readonly #registry: MetricRegistry;
  readonly #names: CallMetricNames;
  readonly #tools = new Set<string>();

  constructor(registry: MetricRegistry, prefix: string) {
    this.#registry = registry;
    this.#names = callMetricNames(prefix);
    registry.counter(
      this.#names.calls,
      'Tool calls by path (face or xprotocol), source, tool and outcome (ok, error, refused).',
      ['path', 'source', 'tool', 'outcome'],
    );
    registry.histogram(
      this.#names.duration,
      'Tool call latency in seconds, by path, source and tool (refused calls included).',
      ['path', 'source', 'tool'],
      LATENCY_BOUNDS,
    );
    registry.counter(this.#names.refusals, 'Refused tool calls by path and reason.', ['path', 'reason']);
  }

  callEnded(record: CallRecord): void {
    const source = record.source ?? OTHER_LABEL;
    const tool = this.#toolLabel(record.tool);
    this.#registry.inc(this.#names.calls, { path: record.path, source, tool, outcome: record.verdict });
    this.#registry.observe(
      this.#names.duration,
      { path: record.path, source, tool },
      record.latencyMs / 1000,
    );
    if (record.verdict === 'refused')
      this.#registry.inc(this.#names.refusals, { path: record.path, reason: record.reason ?? OTHER_LABEL });
  }

  #toolLabel(tool: string | undefined): string {
    if (tool === undefined) return OTHER_LABEL;
    if (this.#tools.has(tool)) return tool;
    if (this.#tools.size >= MAX_TOOL_LABELS) return OTHER_LABEL;
    this.#tools.add(tool);
    return tool;
  }
}
