/**
 * The Prometheus text exposition format, version 0.0.4: counters, gauges and histograms with
 * labels, rendered on demand. Small enough to write here rather than depend on a client library;
 * here, on the lowest floor, so that the adapter and the relay serve one format (docs/operating.md).
 * A counter is either added to as things happen, or read at each scrape from a count its owner
 * keeps anyway (the relay's), so a hot path pays for nothing it did not already do. Label values
 * are escaped as the format says (backslash, double quote, newline); names are fixed by the code,
 * never taken from input.
 * @module
 */

/** The `Content-Type` of the text format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Label names to values, in the order the family declares them. */
export type Labels = Readonly<Record<string, string>>;

type _Kind = 'counter' | 'gauge' | 'histogram';

interface _Histogram {
  buckets: number[];
  sum: number;
  count: number;
}

/** One metric family: its series keyed by their rendered label set. */
class _Family {
  readonly values = new Map<string, number | _Histogram>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly kind: _Kind,
    readonly labelNames: readonly string[],
    readonly bounds: readonly number[] = [],
  ) {}

  key(labels: Labels): string {
    return this.labelNames.map((name) => `${name}="${escapeLabelValue(labels[name] ?? '')}"`).join(',');
  }
}

/** Series read when scraped: each call gives every current series with its value. */
export type SeriesReader = () => readonly (readonly [Labels, number])[];

/** A set of metric families, rendered together. */
export class MetricRegistry {
  readonly #families = new Map<string, _Family>();
  readonly #readers: { family: _Family; read: SeriesReader }[] = [];

  /**
   * Declares a counter (`name` should end in `_total`): added to with {@link inc}, or, with
   * `read`, read at each scrape from a count kept elsewhere (which must only grow).
   */
  counter(name: string, help: string, labelNames: readonly string[], read?: SeriesReader): void {
    const family = new _Family(name, help, 'counter', labelNames);
    this.#declare(family);
    if (read) this.#readers.push({ family, read });
  }

  /** Declares a histogram with upper bounds `bounds` (ascending; `+Inf` is added). */
  histogram(name: string, help: string, labelNames: readonly string[], bounds: readonly number[]): void {
    this.#declare(new _Family(name, help, 'histogram', labelNames, bounds));
  }

  /** Declares a gauge whose series `read` gives at each scrape. */
  gauge(name: string, help: string, labelNames: readonly string[], read: SeriesReader): void {
    const family = new _Family(name, help, 'gauge', labelNames);
    this.#declare(family);
    this.#readers.push({ family, read });
  }

  /** Adds `by` (default 1) to the counter `name` for `labels`. */
  inc(name: string, labels: Labels, by = 1): void {
    const family = this.#family(name, 'counter');
    const key = family.key(labels);
    family.values.set(key, ((family.values.get(key) as number | undefined) ?? 0) + by);
  }

  /** Records `value` in the histogram `name` for `labels`. */
  observe(name: string, labels: Labels, value: number): void {
    const family = this.#family(name, 'histogram');
    const key = family.key(labels);
    let histogram = family.values.get(key) as _Histogram | undefined;
    if (!histogram) {
      histogram = { buckets: family.bounds.map(() => 0), sum: 0, count: 0 };
      family.values.set(key, histogram);
    }
    // Buckets are stored per bound and made cumulative when rendered.
    const index = family.bounds.findIndex((bound) => value <= bound);
    if (index >= 0) histogram.buckets[index]! += 1;
    histogram.sum += value;
    histogram.count += 1;
  }

  /** Every family in the text format, each with its HELP and TYPE lines. */
  render(): string {
    for (const { family, read } of this.#readers) {
      family.values.clear();
      for (const [labels, value] of read()) family.values.set(family.key(labels), value);
    }
    const lines: string[] = [];
    for (const family of this.#families.values()) {
      lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.kind}`);
      for (const [key, value] of family.values) {
        if (typeof value === 'number') lines.push(`${family.name}${_braced(key)} ${_number(value)}`);
        else lines.push(..._histogramLines(family, key, value));
      }
    }
    return `${lines.join('\n')}\n`;
  }

  #declare(family: _Family): void {
    if (this.#families.has(family.name)) throw new Error(`metric ${family.name} is declared twice`);
    this.#families.set(family.name, family);
  }

  #family(name: string, kind: _Kind): _Family {
    const family = this.#families.get(name);
    if (family?.kind !== kind) throw new Error(`metric ${name} is not a declared ${kind}`);
    return family;
  }
}

/** A label value escaped for the text format: `\` → `\\`, `"` → `\"`, newline → `\n`. */
function escapeLabelValue(value: string): string {
  // Most values need nothing: skip the three replaces for them (this runs on every call).
  if (!/[\\"\n]/.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function escapeHelp(help: string): string {
  return help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function _histogramLines(family: _Family, key: string, histogram: _Histogram): string[] {
  const lines: string[] = [];
  const sep = key === '' ? '' : ',';
  let cumulative = 0;
  family.bounds.forEach((bound, i) => {
    cumulative += histogram.buckets[i]!;
    lines.push(`${family.name}_bucket{${key}${sep}le="${_number(bound)}"} ${cumulative}`);
  });
  lines.push(`${family.name}_bucket{${key}${sep}le="+Inf"} ${histogram.count}`);
  lines.push(`${family.name}_sum${_braced(key)} ${_number(histogram.sum)}`);
  lines.push(`${family.name}_count${_braced(key)} ${histogram.count}`);
  return lines;
}

function _braced(key: string): string {
  return key === '' ? '' : `{${key}}`;
}

function _number(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}
