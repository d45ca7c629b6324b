// testdata/vectors/xp-answer-tags.json (docs/protocol.md §10.7): each request of the file is sent
// to a real endpoint through a real relay on loopback (the filesystem server behind it), and the
// answer the relay delivers must have the file's kind and exactly its tags, in order. The file's
// times are at its own `now`; they are moved onto this test's clock by one offset, and the
// endpoint's clock is held at that instant so its answer's created_at is exact.
import { createEventTemplate, openEvent, sealEvent, signEvent, type XpEvent } from '@xprotocol/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type Stack, startStack } from './support/stack.js';
import { loadVectorFile } from './support/vectors.js';

interface TagCase {
  id: string;
  request: {
    kind: string;
    sealed: boolean;
    payload?: unknown;
    content?: string;
    created_at: number;
    expiration?: number;
  };
  answer: { kind: string; encrypted: boolean; created_at: number; tags: string[][] };
  code?: string;
  /** Handed to the endpoint below the relay: an expired event is refused by relays (§9). */
  injected?: boolean;
}
interface TagVectors {
  description: string;
  now: number;
  answer_ttl_seconds: number;
  cases: TagCase[];
  session_messages: { id: string; kind: string; tags: string[][] }[];
}

const vectors = loadVectorFile<TagVectors>('testdata/vectors/xp-answer-tags.json');
const base = Math.floor(Date.now() / 1000);
const shift = base - vectors.now;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ now: () => base * 1000 });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

/** The file's placeholders and times, made real. */
function _real(value: string, request?: XpEvent): string {
  if (/^\d+$/.test(value)) return String(Number(value) + shift);
  return value
    .replace('$caller.x25519', stack.client.keys.x25519)
    .replace('$endpoint.x25519', stack.adapter.keys.x25519)
    .replace('$caller', stack.client.keys.ed25519)
    .replace('$endpoint', stack.adapter.keys.ed25519)
    .replace('$request.id', request?.id ?? '$request.id')
    .replace('$dir', stack.dir);
}

function _request(tc: TagCase['request']): XpEvent {
  const created_at = tc.created_at + shift;
  const expiration = tc.expiration === undefined ? undefined : tc.expiration + shift;
  if (tc.sealed) {
    const payload = JSON.parse(_real(JSON.stringify(tc.payload)));
    return sealEvent(
      { kind: tc.kind, payload, created_at, ...(expiration !== undefined && { expiration }) },
      stack.client,
      stack.adapter.keys,
      backends,
    );
  }
  return signEvent(
    createEventTemplate({
      kind: tc.kind,
      content: tc.content ?? '',
      tags: [['p', stack.adapter.keys.ed25519]],
      created_at,
      ...(expiration !== undefined && { expiration }),
    }),
    stack.client.ed25519.secretKey,
    backends.signatures,
  );
}

/**
 * Publishes `request` (or, for an expired one that no relay takes, hands it to the endpoint
 * below the relay) and resolves with the endpoint's answer as the relay delivers it.
 */
function _answerTo(request: XpEvent, injected: boolean): Promise<XpEvent> {
  return new Promise((resolve, reject) => {
    const subscription = stack.clientPool.subscribe(
      [{ '#e': [request.id], authors: [stack.adapter.keys.ed25519] }],
      {
        onEvent: (event) => {
          subscription.close();
          resolve(event);
        },
      },
    );
    if (injected) stack.endpoint.handleEvent(request).catch(reject);
    else stack.clientPool.publish(request).catch(reject);
  });
}

describe('testdata/vectors/xp-answer-tags.json', () => {
  it('names its section', () => {
    expect(vectors.description).toContain('docs/protocol.md §10.7');
    expect(vectors.answer_ttl_seconds).toBe(3600);
  });

  it.each(vectors.cases.map((tc) => [tc.id, tc] as const))(
    '%s: the answer on the relay has exactly the tags of the file',
    async (_id, tc) => {
      const request = _request(tc.request);
      const answer = await _answerTo(request, tc.injected === true);
      expect(answer.kind).toBe(tc.answer.kind);
      expect(answer.created_at).toBe(tc.answer.created_at + shift);
      expect(answer.tags).toEqual(
        tc.answer.tags.map(([name, value]) => [name, _real(value as string, request)]),
      );
      if (tc.answer.encrypted) {
        const opened = JSON.parse(openEvent(answer, stack.client, backends).plaintext) as { code?: string };
        if (tc.code !== undefined) expect(opened.code).toBe(tc.code);
      } else {
        expect(JSON.parse(answer.content)).toHaveProperty('contracts');
      }
    },
    20_000,
  );
});
