// W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/ §3.2): the example of
// §3.2.2.1 and the refusals §3.2.2 spells out, and the encrypted `trace` tag that carries it across
// XProtocol (docs/protocol.md §10.12): opened by the recipient only, ignored when it cannot be read.
import { generateIdentity, sealEvent } from '@xprotocol/crypto';
import { nodeCipher, nodeSignatures } from '@xprotocol/crypto/node';
import { describe, expect, it } from 'vitest';
import { _openTraceTag, _sealTraceTag } from '../src/caller/xp-trace-tag.js';
import { formatTraceparent, parseTraceparent } from '../src/observe/trace-context.js';

const EXAMPLE = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('traceparent', () => {
  it('reads the specification’s example and writes it back', () => {
    const context = parseTraceparent(EXAMPLE);
    expect(context).toEqual({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      sampled: true,
    });
    expect(formatTraceparent(context!)).toBe(EXAMPLE);
    expect(parseTraceparent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00')?.sampled).toBe(false);
  });

  it('reads a later version by its first four fields', () => {
    expect(parseTraceparent(`cc${EXAMPLE.slice(2)}-what-the-future-adds`)?.traceId).toBe(
      '0af7651916cd43dd8448eb211c80319c',
    );
  });

  it.each([
    ['version ff', `ff${EXAMPLE.slice(2)}`],
    ['an all-zero trace id', '00-00000000000000000000000000000000-b7ad6b7169203331-01'],
    ['an all-zero span id', '00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01'],
    ['uppercase hex', EXAMPLE.toUpperCase()],
    ['version 00 with more after the flags', `${EXAMPLE}-extra`],
    ['a short trace id', '00-0af7651916cd43dd8448eb211c8031-b7ad6b7169203331-01'],
    ['no string', 42],
  ])('is not one with %s', (_what, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });
});

describe('the trace tag', () => {
  const a = generateIdentity();
  const b = generateIdentity();
  const backends = { signatures: nodeSignatures, cipher: nodeCipher };
  const now = Math.floor(Date.now() / 1000);
  const request = (tags: string[][]) =>
    sealEvent(
      { kind: 'com.test.echo', payload: {}, created_at: now, expiration: now + 30, tags },
      a,
      b.keys,
      backends,
    );

  it('carries the traceparent encrypted: the recipient reads it, the tag shows nothing of it', () => {
    const tag = _sealTraceTag(EXAMPLE, a, b.keys, nodeCipher);
    expect(tag[0]).toBe('trace');
    expect(tag[1]).not.toContain('0af7651916cd43dd8448eb211c80319c');
    expect(_openTraceTag(request([tag]), b, nodeCipher)).toBe(EXAMPLE);
  });

  it('is ignored when it is not for this recipient, doubled, or reuses the content’s nonce', () => {
    const other = generateIdentity();
    const tag = _sealTraceTag(EXAMPLE, a, other.keys, nodeCipher);
    expect(_openTraceTag(request([tag]), b, nodeCipher)).toBeUndefined();
    const mine = _sealTraceTag(EXAMPLE, a, b.keys, nodeCipher);
    expect(_openTraceTag(request([mine, mine]), b, nodeCipher)).toBeUndefined();
    const event = request([mine]);
    const reused = {
      ...event,
      tags: event.tags.map((t) => (t[0] === 'trace' ? ['trace', event.content] : t)),
    };
    expect(_openTraceTag(reused, b, nodeCipher)).toBeUndefined();
    expect(_openTraceTag(request([]), b, nodeCipher)).toBeUndefined();
  });
});
