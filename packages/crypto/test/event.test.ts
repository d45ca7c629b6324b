/** Events: shape validation, ids, signing and verification on both backends, size limits, tags. */
import { describe, expect, it } from 'vitest';
import {
  CryptoError,
  canonicalJson,
  computeEventId,
  createEventTemplate,
  type Ed25519KeyString,
  type EventTemplate,
  eventByteLength,
  eventIdPreimage,
  getExpiration,
  getTag,
  getTags,
  hexToBytes,
  isValidKind,
  MAX_EVENT_BYTES,
  nobleSignatures,
  parseEvent,
  type SignatureBackend,
  signEvent,
  verifyEvent,
  verifyEventAsync,
  type XpEvent,
} from '../src/index.js';
import { nodeSignatures } from '../src/node.js';

const BACKENDS: readonly SignatureBackend[] = [nobleSignatures, nodeSignatures];
const SECRET = hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 32); // RFC 8032 test 1
const PUBKEY: Ed25519KeyString = 'ed25519:d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const TEMPLATE: EventTemplate = {
  created_at: 1_700_000_000,
  kind: 'com.test.fs.read_text_file',
  tags: [
    ['p', `ed25519:${'ab'.repeat(32)}`],
    ['expiration', '1700000030'],
  ],
  content: 'hello, wörld 😂',
};

function invalid(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError);
    expect((error as CryptoError).code).toBe('INVALID_EVENT');
    return (error as CryptoError).message;
  }
  throw new Error('expected INVALID_EVENT');
}

const signed = signEvent(TEMPLATE, SECRET);
const withField = (field: string, value: unknown): Record<string, unknown> => ({ ...signed, [field]: value });

describe('event ids', () => {
  it('hashes the RFC 8785 preimage with the xp/1/event tag', () => {
    const preimage = eventIdPreimage({ ...TEMPLATE, pubkey: PUBKEY });
    expect(preimage).toBe(
      canonicalJson([
        'xp/1/event',
        PUBKEY,
        TEMPLATE.created_at,
        TEMPLATE.kind,
        TEMPLATE.tags,
        TEMPLATE.content,
      ]),
    );
    expect(
      preimage.startsWith(`["xp/1/event","${PUBKEY}",1700000000,"com.test.fs.read_text_file",[["p",`),
    ).toBe(true);
    expect(computeEventId({ ...TEMPLATE, pubkey: PUBKEY })).toBe(signed.id);
    expect(signed.id).toMatch(/^[0-9a-f]{64}$/);
  });
  it('ignores id and sig when recomputing', () => {
    expect(computeEventId({ ...signed, id: 'x', sig: 'y' } as XpEvent)).toBe(signed.id);
  });
  it('refuses an invalid preimage naming the field', () => {
    expect(
      invalid(() => computeEventId({ ...TEMPLATE, pubkey: 'ed25519:zz' as `ed25519:${string}` })),
    ).toMatch(/^event\.pubkey: expected "ed25519:"/);
    expect(invalid(() => computeEventId({ ...TEMPLATE, pubkey: PUBKEY, content: '\ud800' }))).toBe(
      'event.content: expected well-formed Unicode, got a lone surrogate at index 0',
    );
  });
});

describe('signEvent / verifyEvent', () => {
  it.each(BACKENDS.map((b) => [b.name, b] as const))(
    '%s: signs the same bytes and verifies',
    (_name, backend) => {
      const event = signEvent(TEMPLATE, SECRET, backend);
      expect(event).toEqual(signed); // Ed25519 is deterministic: both backends sign identically
      expect(event.pubkey).toBe(PUBKEY);
      expect(Object.keys(event)).toEqual(['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig']);
      for (const verifier of BACKENDS) expect(verifyEvent(event, verifier)).toEqual({ ok: true, event });
    },
  );
  it('copies the tags: later changes to the template do not alter the event', () => {
    const tags = [['t', 'a']];
    const event = signEvent({ ...TEMPLATE, tags }, SECRET);
    tags[0]!.push('b');
    expect(event.tags).toEqual([['t', 'a']]);
  });
  it.each(BACKENDS.map((b) => [b.name, b] as const))(
    '%s: names the failing step, in order',
    (_name, backend) => {
      expect(verifyEvent(null, backend)).toEqual({
        ok: false,
        code: 'shape',
        message: 'event: expected a JSON object, got null',
      });
      expect(verifyEvent({ ...signed, content: 'tampered' }, backend)).toMatchObject({
        ok: false,
        code: 'id',
        message: expect.stringMatching(/^event\.id: expected [0-9a-f]{64} \(the recomputed id\), got /),
      });
      const otherSig = signEvent({ ...TEMPLATE, content: 'other' }, SECRET).sig;
      expect(verifyEvent({ ...signed, sig: otherSig }, backend)).toEqual({
        ok: false,
        code: 'signature',
        message: `event.sig: not a valid Ed25519 signature of the id by ${PUBKEY} (${backend.name} backend)`,
      });
      // Another author's key with a recomputed id: the id check passes, the signature does not.
      const mallory = signEvent(TEMPLATE, new Uint8Array(32).fill(7), backend);
      const forged = { ...signed, pubkey: mallory.pubkey };
      forged.id = computeEventId(forged);
      expect(verifyEvent(forged, backend)).toMatchObject({ ok: false, code: 'signature' });
    },
  );
  it('never throws on hostile input', () => {
    const hostile: unknown[] = [undefined, 1, 'x', [], { ...signed, tags: [[1]] }, { ...signed, extra: 1 }];
    const getter = Object.defineProperty({ ...signed }, 'content', {
      enumerable: true,
      get: () => 'changed',
    });
    hostile.push(getter);
    hostile.push(
      Object.defineProperty({ ...signed }, 'kind', {
        enumerable: true,
        get: () => {
          throw new Error('boom');
        },
      }),
    );
    for (const value of hostile) {
      for (const backend of BACKENDS) expect(verifyEvent(value, backend).ok).toBe(false);
    }
  });
});

describe('verifyEventAsync', () => {
  it.each(BACKENDS.map((b) => [b.name, b] as const))(
    '%s: the verdict of verifyEvent for a valid event and for each failing step',
    async (_name, backend) => {
      const otherSig = signEvent({ ...TEMPLATE, content: 'other' }, SECRET).sig;
      const mallory = signEvent(TEMPLATE, new Uint8Array(32).fill(7), backend);
      const forged = { ...signed, pubkey: mallory.pubkey };
      forged.id = computeEventId(forged);
      const cases: unknown[] = [
        signed,
        mallory,
        null,
        { ...signed, content: 'tampered' },
        { ...signed, sig: otherSig },
        forged,
        { ...signed, content: 'x'.repeat(MAX_EVENT_BYTES) },
      ];
      const verdicts = await Promise.all(cases.map((event) => verifyEventAsync(event, backend)));
      expect(verdicts.map((v) => v.ok)).toEqual([true, true, false, false, false, false, false]);
      expect(verdicts).toEqual(cases.map((event) => verifyEvent(event, backend)));
    },
  );
});

describe('parseEvent: says which field is wrong and what was expected', () => {
  it.each([
    ['an array', [], 'event: expected a JSON object, got an array of 0'],
    [
      'an extra field',
      withField('relay', 'x'),
      'event.relay: unexpected field; an event has exactly id, pubkey, created_at, kind, tags, content, sig',
    ],
    ['a missing field', (({ sig: _sig, ...rest }) => rest)(signed), 'event.sig: missing'],
    [
      'uppercase id',
      withField('id', signed.id.toUpperCase()),
      'event.id: expected 64 lowercase hex digits, got "',
    ],
    [
      'a bare hex pubkey',
      withField('pubkey', 'ab'.repeat(32)),
      'event.pubkey: expected "ed25519:" followed by 64 lowercase hex digits, got "abab',
    ],
    [
      'an x25519 pubkey',
      withField('pubkey', `x25519:${'ab'.repeat(32)}`),
      'event.pubkey: expected "ed25519:"',
    ],
    [
      'a fractional created_at',
      withField('created_at', 1.5),
      'event.created_at: expected a non-negative safe integer (unix seconds), got 1.5',
    ],
    ['a negative created_at', withField('created_at', -1), 'got -1'],
    ['an unsafe created_at', withField('created_at', 2 ** 53), 'got 9007199254740992'],
    ['a string created_at', withField('created_at', '1700000000'), 'got "1700000000"'],
    [
      'an empty kind segment',
      withField('kind', 'com..x'),
      'event.kind: expected dot-separated segments of [A-Za-z0-9_-]+, got "com..x"',
    ],
    ['a slash in the kind', withField('kind', 'com.test/x'), 'got "com.test/x"'],
    ['a trailing dot', withField('kind', 'a.'), 'got "a."'],
    ['an empty kind', withField('kind', ''), 'got ""'],
    [
      'tags not an array',
      withField('tags', {}),
      'event.tags: expected an array of string arrays, got object',
    ],
    [
      'an empty tag',
      withField('tags', [[]]),
      'event.tags[0]: expected a non-empty array of strings, got an array of 0',
    ],
    [
      'a number in a tag',
      withField('tags', [
        ['p', 'x'],
        ['e', 5],
      ]),
      'event.tags[1][1]: expected a string, got 5',
    ],
    [
      'a lone surrogate in a tag',
      withField('tags', [['t', 'a\udfff']]),
      'event.tags[0][1]: expected well-formed Unicode, got a lone surrogate at index 1',
    ],
    [
      'a malformed expiration',
      withField('tags', [['expiration', '01']]),
      'event.tags[0][1]: expected unix seconds as a decimal string, got "01"',
    ],
    [
      'a missing expiration value',
      withField('tags', [['expiration']]),
      'event.tags[0][1]: expected unix seconds as a decimal string, got undefined',
    ],
    [
      'two expirations',
      withField('tags', [
        ['expiration', '1'],
        ['expiration', '2'],
      ]),
      'event.tags[1]: expected at most one "expiration" tag, got a second',
    ],
    ['content not a string', withField('content', { a: 1 }), 'event.content: expected a string, got object'],
    ['a short sig', withField('sig', 'ab'), 'event.sig: expected 128 lowercase hex digits, got "ab"'],
  ] as const)('%s', (_label, value, message) => {
    expect(invalid(() => parseEvent(value))).toContain(message);
    expect(verifyEvent(value)).toMatchObject({
      ok: false,
      code: 'shape',
      message: expect.stringContaining(message),
    });
  });
  it('returns a fresh object with exactly the seven fields', () => {
    const parsed = parseEvent(JSON.parse(JSON.stringify(signed)));
    expect(parsed).toEqual(signed);
    expect(parsed).not.toBe(signed);
  });
  it('accepts kinds with digits, dashes and underscores, one segment or many', () => {
    for (const kind of ['a', 'xp.schema.catalog.result', 'A-b_c.9', 'com.test.memory.read_graph']) {
      expect({ kind, ok: isValidKind(kind) }).toEqual({ kind, ok: true });
    }
    for (const kind of ['.a', 'a b', 'é', 'a.b/c', 1])
      expect({ kind, ok: isValidKind(kind) }).toEqual({ kind, ok: false });
  });
});

describe(`the size limit (${MAX_EVENT_BYTES} bytes of JSON)`, () => {
  const base = signEvent({ ...TEMPLATE, tags: [], content: '' }, SECRET);
  const overhead = eventByteLength(base);
  it('measures UTF-8 bytes of the JSON, escapes included', () => {
    expect(overhead).toBe(Buffer.byteLength(JSON.stringify(base)));
    const event = signEvent({ ...TEMPLATE, content: 'é😂"\n\u0001' }, SECRET);
    expect(eventByteLength(event)).toBe(Buffer.byteLength(JSON.stringify(event), 'utf8'));
  });
  it('signs and accepts an event of exactly the limit', () => {
    const event = signEvent(
      { ...TEMPLATE, tags: [], content: 'a'.repeat(MAX_EVENT_BYTES - overhead) },
      SECRET,
    );
    expect(eventByteLength(event)).toBe(MAX_EVENT_BYTES);
    expect(parseEvent(event)).toEqual(event);
    expect(verifyEvent(event, nodeSignatures).ok).toBe(true);
  });
  it('refuses one byte more: signEvent throws, parseEvent throws, verifyEvent says "size"', () => {
    const content = `${'a'.repeat(MAX_EVENT_BYTES - overhead - 1)}é`; // é is 2 bytes
    expect(invalid(() => signEvent({ ...TEMPLATE, tags: [], content }, SECRET, nodeSignatures))).toContain(
      `expected at most ${MAX_EVENT_BYTES} bytes of JSON, got ${MAX_EVENT_BYTES + 1}`,
    );
    const tooBig = { ...base, content };
    expect(invalid(() => parseEvent(tooBig))).toBe(
      `event: expected at most ${MAX_EVENT_BYTES} bytes of JSON, got ${MAX_EVENT_BYTES + 1}`,
    );
    expect(verifyEvent(tooBig, nodeSignatures)).toMatchObject({ ok: false, code: 'size' });
  });
});

describe('id hashing per backend', () => {
  it('the node backend hashes ids with node:crypto; same ids as @noble/hashes', () => {
    expect(typeof nodeSignatures.sha256).toBe('function');
    expect(nobleSignatures.sha256).toBeUndefined();
    const unsigned = { ...TEMPLATE, pubkey: PUBKEY };
    expect(computeEventId(unsigned, nodeSignatures)).toBe(computeEventId(unsigned));
    expect(computeEventId(unsigned, nobleSignatures)).toBe(signed.id);
  });
  it('counts bytes, not UTF-16 units: 3-byte characters reach the limit with a third of the units', () => {
    const base = signEvent({ ...TEMPLATE, tags: [], content: '' }, SECRET, nodeSignatures);
    const room = MAX_EVENT_BYTES - eventByteLength(base);
    const fits = '€'.repeat(Math.floor(room / 3));
    expect(verifyEvent({ ...base, content: fits }, nodeSignatures)).toMatchObject({ ok: false, code: 'id' });
    const over = `${fits}€`;
    expect(over.length * 3).toBeGreaterThan(room);
    expect(verifyEvent({ ...base, content: over }, nodeSignatures)).toMatchObject({
      ok: false,
      code: 'size',
    });
  });
});

describe('templates and tags', () => {
  it('builds a checked template with an expiration tag', () => {
    const template = createEventTemplate({
      kind: 'xp.schema.catalog',
      content: '',
      tags: [['p', PUBKEY]],
      created_at: 100,
      expiration: 130,
    });
    expect(template).toEqual({
      created_at: 100,
      kind: 'xp.schema.catalog',
      tags: [
        ['p', PUBKEY],
        ['expiration', '130'],
      ],
      content: '',
    });
    expect(getExpiration(template)).toBe(130);
    expect(getTag(template, 'p')).toBe(PUBKEY);
    expect(getTag(template, 'e')).toBeUndefined();
    expect(getTags(template, 'p')).toEqual([['p', PUBKEY]]);
  });
  it('defaults created_at to the current second', () => {
    const before = Math.floor(Date.now() / 1000);
    const { created_at } = createEventTemplate({ kind: 'a', content: '' });
    expect(created_at).toBeGreaterThanOrEqual(before);
    expect(created_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });
  it('refuses a bad kind or expiration naming the field', () => {
    expect(invalid(() => createEventTemplate({ kind: 'a b', content: '' }))).toMatch(/^event\.kind: /);
    expect(invalid(() => createEventTemplate({ kind: 'a', content: '', expiration: 1.5 }))).toMatch(
      /^event\.tags\[0\]\[1\]: expected unix seconds/,
    );
  });
  it('getExpiration: undefined without the tag, an error for a malformed one', () => {
    expect(getExpiration({ tags: [] })).toBeUndefined();
    expect(invalid(() => getExpiration({ tags: [['expiration', 'soon']] }))).toContain('got "soon"');
  });
});
