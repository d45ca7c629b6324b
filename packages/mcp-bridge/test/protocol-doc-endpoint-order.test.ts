/**
 * testdata/vectors/xp-endpoint-order.json (docs/protocol.md §4, the endpoint's steps; §6.3; §10.5)
 * against a real endpoint: each request, failing one or two checks at once, goes into the
 * endpoint's pipeline (from step 1, the shape check), and what reaches the real loopback relay is
 * watched. "No answer" is proven, not waited for: after the case has been handled, a control
 * request from the same sender that is answered (`NOT_FOUND`) follows it through the same outbox,
 * and only once the control's answer is on the relay is the case's absence checked.
 * @module
 */
import {
  conversationKey,
  createEventTemplate,
  encryptPayload,
  generateIdentity,
  getTag,
  type Identity,
  nobleCipher,
  openEventJson,
  parseKey,
  signEvent,
  type XpEvent,
} from '@xprotocol/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundOutcome } from '../src/index.js';
import { backends, type Stack, startStack } from './support/stack.js';
import { loadVectorFile } from './support/vectors.js';

const FILE = 'xp-endpoint-order.json';

interface OrderCase {
  name: string;
  fails: string[];
  kind: string;
  tags: string[][];
  payload?: unknown;
  content?: string;
  created_at?: string;
  spend_rate_limit?: boolean;
  mcp_context?: unknown;
  expect: string | null;
}
const vectors = loadVectorFile<{ description: string; cases: OrderCase[] }>(`testdata/vectors/${FILE}`);
const senders = vectors.cases.map(() => generateIdentity());
const other = generateIdentity();

let stack: Stack;
/** Every answer the relay sent to any sender, in arrival order. */
const onRelay: XpEvent[] = [];
const waiters = new Set<() => void>();

beforeAll(async () => {
  stack = await startStack({
    requestsPerMinute: 1,
    access: {
      default: 'deny',
      grants: senders.map((s) => ({ key: s.keys.ed25519, capabilities: ['com.test.fs.read'] })),
    },
  });
  await new Promise<void>((eose) => {
    stack.clientPool.subscribe([{ '#p': senders.map((s) => s.keys.ed25519) }], {
      onEvent: (event) => {
        onRelay.push(event);
        for (const wake of waiters) wake();
      },
      onEose: () => eose(),
    });
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

/** The first answer on the relay naming `id` in its `e` tag (bounded by the test's timeout). */
function answerOn(id: string): Promise<XpEvent> {
  return new Promise((resolve) => {
    const look = () => {
      const found = onRelay.find((event) => getTag(event, 'e') === id);
      if (!found) return;
      waiters.delete(look);
      resolve(found);
    };
    waiters.add(look);
    look();
  });
}

/** The conversation key of `sender` and the endpoint. */
function keyOf(sender: Identity): Uint8Array {
  return conversationKey(
    sender.x25519.secretKey,
    parseKey(stack.adapter.keys.x25519, 'x25519').bytes,
    sender.ed25519.publicKey,
    parseKey(stack.adapter.keys.ed25519, 'ed25519').bytes,
    backends.cipher,
  );
}

/** The request a case describes, with its placeholders filled in. */
function build(c: OrderCase, sender: Identity): XpEvent {
  const now = Math.floor(Date.now() / 1000);
  const key = keyOf(sender);
  const nonce = nobleCipher.randomBytes(32);
  const sealed = encryptPayload(JSON.stringify(c.payload ?? {}), key, { backend: backends.cipher, nonce });
  const garbled = () => encryptPayload('{}', nobleCipher.randomBytes(32), { backend: backends.cipher });
  const context = (sameNonce: boolean) =>
    encryptPayload(JSON.stringify(c.mcp_context), key, {
      backend: backends.cipher,
      ...(sameNonce && { nonce }),
    });
  const fill = (value: string): string => {
    switch (value) {
      case '$endpoint':
        return stack.adapter.keys.ed25519;
      case '$other':
        return other.keys.ed25519;
      case '$sender_x25519':
        return sender.keys.x25519;
      case '$sender_x25519_uppercase':
        return `x25519:${sender.keys.x25519.slice('x25519:'.length).toUpperCase()}`;
      case '$past':
        return String(now - 10);
      case '$garbled':
        return garbled();
      case '$context':
        return context(false);
      case '$context_same_nonce':
        return context(true);
      default:
        if (value.startsWith('$')) throw new Error(`${FILE}: unknown placeholder ${value}`);
        return value;
    }
  };
  const content = c.content === undefined ? sealed : c.content === '$garbled' ? garbled() : c.content;
  return signEvent(
    createEventTemplate({
      kind: c.kind,
      content,
      tags: c.tags.map((tag) => tag.map(fill)),
      created_at: c.created_at === '$stale' ? now - 7200 : now,
    }),
    sender.ed25519.secretKey,
    backends.signatures,
  );
}

/** A request from `sender` that gets `code`: built from the case's good tags. */
function plain(sender: Identity, kind: string, payload: unknown): XpEvent {
  return build(
    {
      name: 'control',
      fails: [],
      kind,
      payload,
      tags: [
        ['p', '$endpoint'],
        ['x25519', '$sender_x25519'],
      ],
      expect: null,
    },
    sender,
  );
}

/** The `xp.error` code of an answer sealed to `sender`. */
function codeOf(answer: XpEvent, sender: Identity): unknown {
  return (openEventJson(answer, sender, backends).payload as { code?: unknown }).code;
}

describe(`testdata/vectors/${FILE}`, () => {
  it('names its section and covers both outcomes', () => {
    expect(vectors.description).toMatch(/docs\/protocol\.md §4/);
    expect(vectors.cases.some((c) => c.expect === null)).toBe(true);
    expect(vectors.cases.some((c) => c.expect !== null)).toBe(true);
  });

  it.each(vectors.cases.map((c, i) => [c.name, c, i] as const))('%s', async (_name, c, i) => {
    const sender = senders[i]!;
    if (c.spend_rate_limit) {
      const spend = plain(sender, 'com.test.fs.read_text_file', { path: 42 });
      expect(await stack.endpoint.handleEvent(spend)).toMatchObject({ code: 'SCHEMA_VIOLATION' });
    }
    const request = build(c, sender);
    const outcome: InboundOutcome = await stack.endpoint.handleEvent(request);
    const control = plain(sender, 'com.test.fs.no_such_tool', {});
    expect(await stack.endpoint.handleEvent(control)).toMatchObject({ code: 'NOT_FOUND' });
    const controlAnswer = await answerOn(control.id);
    expect(codeOf(controlAnswer, sender)).toBe('NOT_FOUND');
    const answers = onRelay.filter((event) => getTag(event, 'e') === request.id);
    if (c.expect === null) {
      expect(outcome.action, outcome.action === 'dropped' ? outcome.reason : '').toBe('dropped');
      expect(answers).toEqual([]);
    } else {
      expect(answers).toHaveLength(1);
      expect(codeOf(answers[0]!, sender)).toBe(c.expect);
      // The answer is sealed to the sender's own key, the one its request named.
      expect(getTag(answers[0]!, 'p')).toBe(sender.keys.ed25519);
    }
    expect(stack.upstreamCalls()).toBe(0);
  });
});
