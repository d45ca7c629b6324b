/**
 * A fuzz target: one kind of input the adapter or the relay reads from the outside, how to make
 * such inputs, and the rule every input must follow (answered or dropped as documented, never a
 * crash). `check` throws when the rule is broken.
 * @module
 */
import type fc from 'fast-check';

/** One fuzz target. */
export interface FuzzTarget<T = unknown> {
  /** A short name, used on the command line (`--target`). */
  name: string;
  /** What the rule is, in one line (printed with the results). */
  rule: string;
  /** Its share of a run's inputs. */
  weight: number;
  /** Prepares what the inputs need (a relay, keys, a server); returns the input maker and the check. */
  open(): Promise<OpenTarget<T>>;
}

/** A target ready to run. */
export interface OpenTarget<T> {
  arbitrary: fc.Arbitrary<T>;
  /** Runs one input; throws when the rule is broken. */
  check(input: T): void | Promise<void>;
  /** Frees what `open` made. */
  close?(): Promise<void>;
}

/** Throws `message` unless `condition` holds. */
export function rule(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
