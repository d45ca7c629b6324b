/**
 * What a conformance check is, what it reports, and the context it runs in. A failure always
 * says what was sent, what came back and what was expected.
 * @module
 */
import type { XpEvent } from '@xprotocol/crypto';
import { type NativeProbe, pickProbe } from './native-probe.js';
import type { Target } from './target.js';
import { TEST_NAMESPACE } from './test-tools.js';

/**
 * The call the signature check sends through the injector: `read_note` of the test server for an
 * adapter (its calls file shows whether `mark` arrived), the native probe for a native endpoint.
 */
export interface SignedCall {
  readonly kind: string;
  payload(mark: string): unknown;
  /** How many recorded calls carry `mark`; undefined when nothing records them. */
  count(mark: string): number | undefined;
}

/** One failed expectation. */
export interface Failure {
  /** What was being checked. */
  readonly what: string;
  readonly sent: string;
  readonly received: string;
  readonly expected: string;
}

/** The outcome of one check. */
export interface CheckResult {
  readonly name: string;
  /** Its number: 1 to 11 in the spec's list of conformance tests, 12 on for the optional checks. */
  readonly number: number;
  readonly title: string;
  /**
   * `absent` only for an optional check: the behaviour is not there, which is no failure. A
   * behaviour that is there but wrong is `fail`, optional or not.
   */
  readonly status: 'pass' | 'fail' | 'absent';
  /** Whether the check probes an optional behaviour (the spec's MAY list) rather than a MUST. */
  readonly optional: boolean;
  readonly failures: readonly Failure[];
  /** What was verified, in a few words each. */
  readonly notes: readonly string[];
  /** The numbers of the spec's mandatory behaviours (1 to 12) this check helps prove. */
  readonly must: readonly number[];
  /** What the verdict rests on: the notes of what was verified, then each failure in one line. */
  readonly evidence: readonly string[];
  readonly durationMs: number;
}

/** A conformance check. */
export interface Check {
  /** For `--only NAME`. */
  readonly name: string;
  readonly number: number;
  readonly title: string;
  /** The optional behaviour it probes, for an optional check (it may then report `absent`). */
  readonly optional?: string;
  run(context: CheckContext): Promise<void>;
}

/** What the checks share: the announce and the catalog, fetched once. */
export class SharedFacts {
  #announce: Promise<XpEvent | undefined> | undefined;
  #catalog: Promise<Record<string, unknown>[]> | undefined;
  #probe: Promise<NativeProbe> | undefined;

  constructor(readonly target: Target) {}

  /** The native profile's probe: a tool of the catalog and payloads for it (native-probe.ts). */
  probe(): Promise<NativeProbe> {
    this.#probe ??= this.catalog().then(pickProbe);
    return this.#probe;
  }

  /** The call the signature check forges and replays, by the target's profile. */
  async signedCall(): Promise<SignedCall> {
    if (this.target.profile === 'native') {
      const probe = await this.probe();
      return { kind: probe.kind, payload: () => probe.payload, count: () => undefined };
    }
    return {
      kind: `${TEST_NAMESPACE}.read_note`,
      payload: (mark) => ({ title: mark }),
      count: (mark) =>
        this.target.readCalls()?.filter((c) => JSON.stringify(c.arguments).includes(mark)).length,
    };
  }

  /** The adapter's newest announce. */
  announce(): Promise<XpEvent | undefined> {
    this.#announce ??= this.target.xp.announce(this.target.adapter.ed25519, 15_000);
    return this.#announce;
  }

  /** Every contract the adapter's catalog lists. */
  catalog(): Promise<Record<string, unknown>[]> {
    this.#catalog ??= this.target.xp
      .catalog(this.target.keys.client, this.target.adapter.ed25519)
      .then((r) => r.contracts);
    return this.#catalog;
  }
}

/** Collects one check's failures and notes. */
export class CheckContext {
  readonly failures: Failure[] = [];
  readonly notes: string[] = [];
  /** Why the optional behaviour is not there, once an optional check found it absent. */
  absentBecause: string | undefined;

  constructor(
    readonly target: Target,
    readonly facts: SharedFacts,
  ) {}

  /** Records a failure. */
  fail(failure: Failure): void {
    this.failures.push(failure);
  }

  /** Records a failure unless `ok`; returns `ok`. */
  expect(ok: boolean, failure: Failure): boolean {
    if (!ok) this.fail(failure);
    return ok;
  }

  /** Records that the optional behaviour a check probes is not there (a note, not a failure). */
  absent(reason: string): void {
    this.absentBecause = reason;
    this.note(`absent: ${reason}`);
  }

  /** Records what was verified. */
  note(text: string): void {
    this.notes.push(text);
  }
}

/** JSON, shortened for a report line. */
export function show(value: unknown, max = 300): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/**
 * Runs one check, turning a throw into a failure. `must` lists the mandatory behaviours the check
 * helps prove (the suite's mapping).
 */
export async function runCheck(
  check: Check,
  target: Target,
  facts: SharedFacts,
  must: readonly number[] = [],
): Promise<CheckResult> {
  const started = performance.now();
  const context = new CheckContext(target, facts);
  try {
    await check.run(context);
  } catch (error) {
    context.fail({
      what: `${check.name} ran to the end`,
      sent: 'the check',
      received: `an exception: ${(error as Error).stack ?? String(error)}`,
      expected: 'no exception',
    });
  }
  return {
    name: check.name,
    number: check.number,
    title: check.title,
    status:
      context.failures.length > 0
        ? 'fail'
        : check.optional && context.absentBecause !== undefined
          ? 'absent'
          : 'pass',
    optional: check.optional !== undefined,
    failures: context.failures,
    notes: context.notes,
    must,
    evidence: [
      ...context.notes,
      ...context.failures.map(
        (f) => `FAILED ${f.what}: sent ${f.sent}; received ${f.received}; expected ${f.expected}`,
      ),
    ],
    durationMs: Math.round(performance.now() - started),
  };
}
