/**
 * `callEndpoint(options)`: one signed, encrypted call to an XProtocol endpoint through relays, as
 * a one-shot client makes it — connect (failing fast when no relay can be reached), find the
 * endpoint's X25519 key in its `xp.endpoint.announce`, check that a trust root vouches for it
 * when roots are given, seal, sign, publish, await the sealed answer, close.
 * `xprotocol-adapter call` and the devserver's `--demo` are both this function.
 * @module
 */
import type { Identity, XpEvent } from '@xprotocol/crypto';
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
 * names each URL and why), `NOT_FOUND` (no announce of that key on the relays),
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
    try {
      announce = await _abortable(caller.resolve(options.to, left()), options.signal);
    } catch (error) {
      if (error instanceof BridgeError) return fail('NOT_FOUND', error.message);
      throw error;
    }
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
