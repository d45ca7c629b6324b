/**
 * Who can show a person a URL while an upstream request is made (docs/security.md, "OAuth to
 * upstream servers"): a call from the MCP face runs with the face client's URL-mode elicitation
 * (MCP 2025-11-25 `elicitation/create`, `mode: "url"`) as its {@link AuthorizationAsker}, so that
 * an upstream that asks for a wider scope or a new authorization server can be authorized in the
 * middle of the call. The asker follows the call through every `await` (an `AsyncLocalStorage`),
 * down to the transport's fetch, without each layer in between passing it on; a request the
 * adapter makes on its own (a catalog refresh) has none.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { BridgeError } from '../errors.js';

/** What the person said to the URL shown: opened it (`accept`), or not. */
export type AskOutcome = 'accept' | 'decline' | 'cancel';

/**
 * Shows `url` to the person behind the current call with `message` (why), and resolves with their
 * answer. Rejects when the client cannot show a URL (the message says which and what to do).
 */
export interface AuthorizationAsker {
  /** True when the client said it can show a URL (its `elicitation.url` capability). */
  readonly canShowUrl: boolean;
  /** What the client is, for errors (`the MCP client of the face`). */
  readonly who: string;
  ask(request: { url: string; message: string; id: string }): Promise<AskOutcome>;
}

const _current = new AsyncLocalStorage<AuthorizationAsker>();

/** Runs `work` with `asker` as the one every upstream request inside it may use. */
export function withAuthorizationAsker<T>(asker: AuthorizationAsker | undefined, work: () => T): T {
  return asker === undefined ? work() : _current.run(asker, work);
}

/** The asker of the call this code runs for, if any. */
export function _currentAsker(): AuthorizationAsker | undefined {
  return _current.getStore();
}

/**
 * An upstream request refused until a person authorizes a new grant, made where no one could be
 * asked (a request of the adapter's own, or a client that cannot open a URL). Its message names
 * the source and the `login` command; a face request whose client can open a URL may try again.
 */
export class AuthorizationNeededError extends BridgeError {
  constructor(message: string) {
    super('UPSTREAM_UNAVAILABLE', message);
    this.name = 'AuthorizationNeededError';
  }
}

/** True when `error`, or one of its causes, is an {@link AuthorizationNeededError}. */
export function isAuthorizationNeeded(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof AuthorizationNeededError) return true;
    current = current.cause;
  }
  return false;
}
