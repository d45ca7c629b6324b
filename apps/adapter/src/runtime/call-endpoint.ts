/**
 * `callEndpoint(options)`: one signed, encrypted call to an XProtocol endpoint through relays, as
 * a one-shot client makes it — connect (failing fast when no relay can be reached), follow a
 * rotation of the endpoint's key (docs/protocol.md §11.8), find the endpoint's X25519 key in its
 * `xp.endpoint.announce`, check that a trust root vouches for it when roots are given, seal,
 * sign, publish, await the sealed answer, close.
 * `xprotocol-adapter call` and the devserver's `--demo` are both this function.
 * @module
 */
import { type Identity, type Rotation, rotationInGrace, type XpEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { BridgeError, XpCaller } from '@xprotocol/mcp-bridge';
import type { Announce } from '@xprotocol/registry';
import { RelayClientError, RelayPool } from '@xprotocol/relay-client';

/** Options of {@link callEndpoint}. */
export interface CallEndpointOptions {
  /** The caller's identity (e.g. from `readKeyFile`). */
  identity: Identity;
  /** Relay URLs, `ws://` or `wss://`; at least one. */
  relays: readonly string[];
  /** The endpoint's `ed25519:` key. */
  to: string;
  kind: string;
  payload: unknown;
  /** The whole call, from connecting to the answer, in ms. The call's `expiration` is its end. */
  timeoutMs: number;
  /** Aborting ends the call at its current step (`INTERRUPTED`). */
  signal?: AbortSignal;
  /** The caller's delegation chain, root first, sent in the request's encrypted `delegation` tag. */
  delegation?: readonly { id: string }[];
  /**
   * Told, in words for the operator, that the endpoint's key was rotated and where the call goes
   * instead (once per call; `call` prints it as a warning).
   */
  onRotation?: (notice: string, rotation: Rotation) => void;
  /** Called once the announce is found, just before the request is sent. */
  onResolved?: (announce: Announce) => void;
  /**
   * Trust roots: the announce's delegation chain must come from one of `roots` and vouch for the
   * endpoint, at this machine's time (`XpCaller.vouch`); `label` names them in the refusal
   * (`--trust-root`). Absent: the chain is not asked for.
   */
  trust?: { roots: readonly string[]; label: string };
}

/**
 * Why a call failed: an XProtocol error code from the endpoint (`AUTHORIZATION_INSUFFICIENT`,
 * `TIMEOUT`, …), or a local one: `RELAY_UNREACHABLE` (no relay accepted a connection; the message
 * names each URL and why), `NOT_FOUND` (no announce of that key on the relays, or its key was
 * rotated, the grace period is over and the new key has no announce),
 * `UNTRUSTED_ENDPOINT` (no trust root vouches for it; nothing was sent), `INTERRUPTED`.
 */
export interface CallFailure {
  code: string;
  message: string;
  /** With `UNTRUSTED_ENDPOINT`: the chain check's code (or `no_chain`, `not_the_signer`) and the link. */
  details?: { refusal: string; link?: number };
}

/** The outcome of {@link callEndpoint}. */
export type CallEndpointResult =
  | {
      ok: true;
      /** The answer's payload (a tool's `CallToolResult`; it may have `isError: true`). */
      payload: unknown;
      answer: XpEvent;
      announce: Announce;
      /** From sending the request to opening the answer, in ms. */
      roundTripMs: number;
    }
  | { ok: false; error: CallFailure; announce: Announce | undefined };

/** Makes the call; resolves with the answer or the failure, never rejects on a network or remote error. */
export async function callEndpoint(options: CallEndpointOptions): Promise<CallEndpointResult> {
  const deadline = Date.now() + options.timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  const pool = await RelayPool.open({ urls: options.relays, reconnect: { initialMs: 250, maxMs: 2000 } });
  let announce: Announce | undefined;
  const fail = (code: string, message: string, details?: CallFailure['details']): CallEndpointResult => ({
    ok: false,
    error: { code, message, ...(details && { details }) },
    announce,
  });
  try {
    try {
      await _abortable(pool.connect(left()), options.signal);
    } catch (error) {
      if (error instanceof RelayClientError && error.code === 'UNREACHABLE')
        return fail('RELAY_UNREACHABLE', error.message);
      throw error;
    }
    const caller = new XpCaller({
      identity: options.identity,
      pool,
      signatures: nodeSignatures,
      cipher: nodeCipher,
    });
    const found = await _abortable(_resolveFollowingRotation(caller, options, left), options.signal);
    if (!found.ok) return fail('NOT_FOUND', found.message);
    announce = found.announce;
    if (options.trust) {
      const revocations = await _abortable(caller.chainRevocations(announce, left()), options.signal);
      const vouched = caller.vouch(announce, options.trust.roots, options.trust.label, revocations);
      if (!vouched.ok)
        return fail('UNTRUSTED_ENDPOINT', vouched.message, {
          refusal: vouched.refusal,
          ...(vouched.link !== undefined && { link: vouched.link }),
        });
    }
    options.onResolved?.(announce);
    const started = performance.now();
    const outcome = await _abortable(
      caller.call({
        to: announce.keys,
        kind: options.kind,
        payload: options.payload,
        timeoutMs: left(),
        ...(options.signal && { signal: options.signal }),
        ...(options.delegation && { delegation: options.delegation }),
      }),
      options.signal,
    );
    if (!outcome.ok) return fail(outcome.error.code, outcome.error.message);
    return {
      ok: true,
      payload: outcome.payload,
      answer: outcome.answer,
      announce,
      roundTripMs: performance.now() - started,
    };
  } catch (error) {
    if (error instanceof _Interrupted) return fail('INTERRUPTED', error.message);
    throw error;
  } finally {
    await pool.close();
  }
}

/** How long a call waits for the relays' stored rotations of the key, at most. */
const ROTATION_LOOKUP_MS = 5_000;
/** How long a call looks for the new key's announce, at most, before it considers the old key. */
const SUCCESSOR_LOOKUP_MS = 5_000;

/**
 * The announce to send to: the new key's when the relays hold a rotation of `options.to`; within
 * the grace period the old key's when the new key has none; never the old key's after it.
 */
async function _resolveFollowingRotation(
  caller: XpCaller,
  options: CallEndpointOptions,
  left: () => number,
): Promise<{ ok: true; announce: Announce } | { ok: false; message: string }> {
  const resolve = async (key: string, timeoutMs: number) => {
    try {
      return { ok: true as const, announce: await caller.resolve(key, timeoutMs) };
    } catch (error) {
      if (error instanceof BridgeError) return { ok: false as const, message: error.message };
      throw error;
    }
  };
  const rotation = await caller.findRotation(options.to, Math.min(left(), ROTATION_LOOKUP_MS));
  if (rotation === undefined) return resolve(options.to, left());
  const rotated = `${options.to} was rotated to ${rotation.new_key} (rotation ${rotation.id.slice(0, 8)}…, grace until ${_when(rotation.grace_until)})`;
  const successor = await resolve(rotation.new_key, Math.min(left(), SUCCESSOR_LOOKUP_MS));
  if (successor.ok) {
    options.onRotation?.(
      `${rotated}: sending to ${rotation.new_key}; update the configuration to --to ${rotation.new_key}`,
      rotation,
    );
    return successor;
  }
  if (!rotationInGrace(rotation, Math.floor(Date.now() / 1000))) {
    return {
      ok: false,
      message: `${rotated}, its grace period ended, and ${successor.message}: a rotated key is never sent to after its grace period; start the new key's endpoint, or update the configuration`,
    };
  }
  options.onRotation?.(
    `${rotated}, but there is no announce of ${rotation.new_key} on the relays: sending to the old key until its grace period ends; update the configuration to --to ${rotation.new_key}`,
    rotation,
  );
  return resolve(options.to, left());
}

/** Unix seconds with their UTC date: `1767225600 (2026-01-01T00:00:00Z)`. */
function _when(seconds: number): string {
  return `${seconds} (${new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')})`;
}

class _Interrupted extends Error {}

/** `work`, or an {@link _Interrupted} rejection as soon as `signal` aborts (`work` needs no cleanup of its own). */
function _abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new _Interrupted(`interrupted (${String(signal.reason ?? 'aborted')})`));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
