// Builds testdata/vectors/xp-event-shape.json (docs/protocol.md §2.2, "The JSON text" and the
// field table): raw event texts and the verdict a receiver gives them. A fixed key and time, so
// every build writes the same bytes. Each text is signed over the value its fields have when read
// the permissive way (`JSON.parse`, the last of two equal names), so only the rule under test
// refuses it. The verdicts are written by hand from the document, never computed.
import {
  bytesToHex,
  canonicalJson,
  EVENT_ID_TAG,
  type EventTemplate,
  hexToBytes,
  identityFromSecretKeys,
  nobleCipher,
  nobleSignatures,
  signEvent,
  type XpEvent,
} from '@xprotocol/crypto';

/** One case: an event's JSON text and what a receiver does with it. */
export interface EventShapeCase {
  name: string;
  text: string;
  expect: { verdict: 'accepted' } | { verdict: 'refused'; code: 'shape' | 'id' | 'signature' };
}

/** The whole file. */
export interface EventShapeVectors {
  description: string;
  key: { ed25519_secret: string; ed25519: string };
  cases: EventShapeCase[];
}

const SECRET = '03'.repeat(32);
const me = identityFromSecretKeys(
  { ed25519: hexToBytes(SECRET), x25519: hexToBytes('04'.repeat(32)) },
  { signatures: nobleSignatures, cipher: nobleCipher },
);
const T = 1_700_000_000;
const BASE: EventTemplate = { created_at: T, kind: 'com.example.echo', tags: [], content: 'hi' };

/** Signed with the checks of the signer; a template the signer refuses is signed by {@link signLoose}. */
function sign(template: Partial<EventTemplate>): XpEvent {
  try {
    return signEvent({ ...BASE, ...template }, me.ed25519.secretKey, nobleSignatures);
  } catch {
    return signLoose({ ...BASE, ...template });
  }
}

/** The id (§2.3) and signature (§3) of a template whatever its tags say: what a careless signer makes. */
function signLoose(template: EventTemplate): XpEvent {
  const { created_at, kind, tags, content } = template;
  const preimage = canonicalJson([EVENT_ID_TAG, me.keys.ed25519, created_at, kind, tags, content]);
  const idBytes = nobleCipher.sha256(new TextEncoder().encode(preimage));
  const sig = bytesToHex(nobleSignatures.sign(idBytes, me.ed25519.secretKey));
  return { id: bytesToHex(idBytes), pubkey: me.keys.ed25519, ...template, sig };
}

/** The event's text with the seven fields in wire order; `raw` replaces a field's JSON text. */
function text(event: XpEvent, raw: Partial<Record<keyof XpEvent, string>> = {}): string {
  const fields = ['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig'] as const;
  return `{${fields.map((f) => `"${f}":${raw[f] ?? JSON.stringify(event[f])}`).join(',')}}`;
}

const accepted = { verdict: 'accepted' } as const;
const shape = { verdict: 'refused', code: 'shape' } as const;

function tokenCases(): EventShapeCase[] {
  const plain = sign({});
  return [
    { name: 'created_at as an integer', text: text(plain), expect: accepted },
    {
      name: 'created_at written 1.7e9 (the same value)',
      text: text(plain, { created_at: '1.7e9' }),
      expect: accepted,
    },
    {
      name: 'created_at written 1700000000.0 (the same value)',
      text: text(plain, { created_at: '1700000000.0' }),
      expect: accepted,
    },
    {
      name: 'created_at written 17000000000e-1 (the same value)',
      text: text(plain, { created_at: '17000000000e-1' }),
      expect: accepted,
    },
    { name: 'created_at 1700000000.5', text: text(plain, { created_at: '1700000000.5' }), expect: shape },
    { name: 'created_at as a string', text: text(plain, { created_at: '"1700000000"' }), expect: shape },
    {
      name: 'created_at 2^53, past the safe integers',
      text: text(plain, { created_at: '9007199254740992' }),
      expect: shape,
    },
    { name: 'created_at -1', text: text(plain, { created_at: '-1' }), expect: shape },
    {
      name: 'created_at 1e400 (not a finite number)',
      text: text(plain, { created_at: '1e400' }),
      expect: shape,
    },
  ];
}

function duplicateCases(): EventShapeCase[] {
  const plain = sign({});
  const body = text(plain).slice(1);
  return [
    {
      name: 'a member name twice, the same value',
      text: `{"kind":"com.example.echo",${body}`,
      expect: shape,
    },
    {
      name: 'a member name twice, the signed value last',
      text: `{"kind":"com.example.other",${body}`,
      expect: shape,
    },
    {
      name: 'a member name twice, once written with an escape',
      text: `{"k\\u0069nd":"com.example.echo",${body}`,
      expect: shape,
    },
    { name: 'whitespace between the tokens', text: JSON.stringify(plain, null, 2), expect: accepted },
    {
      name: 'the members in another order',
      text: JSON.stringify(Object.fromEntries(Object.entries(plain).reverse())),
      expect: accepted,
    },
  ];
}

function depthCases(): EventShapeCase[] {
  const plain = sign({});
  const nested = (levels: number) => `[["t",${'['.repeat(levels)}${']'.repeat(levels)}]]`;
  return [
    {
      name: 'a tag element that is an array (4 levels)',
      text: text(plain, { tags: nested(1) }),
      expect: shape,
    },
    { name: 'tags nested 513 levels deep', text: text(plain, { tags: nested(510) }), expect: shape },
    { name: 'an array, not an object', text: `[${text(plain)}]`, expect: shape },
  ];
}

function tagCases(): EventShapeCase[] {
  const tagged = (tags: string[][]) => text(sign({ tags }));
  const key = `ed25519:${'ab'.repeat(32)}`;
  return [
    { name: 'expiration "0"', text: tagged([['expiration', '0']]), expect: accepted },
    { name: 'expiration "00" (a leading zero)', text: tagged([['expiration', '00']]), expect: shape },
    { name: 'expiration "1e9"', text: tagged([['expiration', '1e9']]), expect: shape },
    { name: 'expiration "-1"', text: tagged([['expiration', '-1']]), expect: shape },
    {
      name: 'expiration " 1700000900" (a space)',
      text: tagged([['expiration', ' 1700000900']]),
      expect: shape,
    },
    { name: 'expiration 2^53', text: tagged([['expiration', '9007199254740992']]), expect: shape },
    { name: 'expiration without a value', text: tagged([['expiration']]), expect: shape },
    {
      name: 'two expiration tags',
      text: tagged([
        ['expiration', '1700000900'],
        ['expiration', '1700000900'],
      ]),
      expect: shape,
    },
    {
      name: 'expiration with a third element',
      text: tagged([['expiration', '1700000900', 'x']]),
      expect: accepted,
    },
    { name: 'p with a third element', text: tagged([['p', key, 'wss://relay.example']]), expect: accepted },
    { name: 'p that is not a key string', text: tagged([['p', 'someone']]), expect: accepted },
    {
      name: 'two p tags',
      text: tagged([
        ['p', key],
        ['p', key],
      ]),
      expect: accepted,
    },
    { name: 'e that is not an event id', text: tagged([['e', 'xyz']]), expect: accepted },
    { name: 'x25519 that is not a key string', text: tagged([['x25519', 'x25519:00']]), expect: accepted },
    { name: 'a tag of one element', text: tagged([['t']]), expect: accepted },
    { name: 'an empty tag', text: text(sign({}), { tags: '[[]]' }), expect: shape },
    { name: 'a tag element that is a number', text: text(sign({}), { tags: '[["t",1]]' }), expect: shape },
  ];
}

function fieldCases(): EventShapeCase[] {
  const plain = sign({});
  const flipped = (plain.sig[0] === 'a' ? 'b' : 'a') + plain.sig.slice(1);
  return [
    { name: 'an extra field', text: `${text(plain).slice(0, -1)},"relay":"x"}`, expect: shape },
    { name: 'a lone surrogate in content', text: text(plain, { content: '"\\ud800"' }), expect: shape },
    { name: 'kind with an empty segment', text: text(plain, { kind: '"com..echo"' }), expect: shape },
    {
      name: 'pubkey without its prefix',
      text: text(plain, { pubkey: JSON.stringify(plain.pubkey.slice(8)) }),
      expect: shape,
    },
    {
      name: 'id in uppercase',
      text: text(plain, { id: JSON.stringify(plain.id.toUpperCase()) }),
      expect: shape,
    },
    {
      name: 'content changed after signing',
      text: text(plain, { content: '"ho"' }),
      expect: { verdict: 'refused', code: 'id' },
    },
    {
      name: 'a signature of another id',
      text: text(plain, { sig: JSON.stringify(flipped) }),
      expect: { verdict: 'refused', code: 'signature' },
    },
  ];
}

/** The file's content, as it is written. */
export function eventShapeVectorsText(): string {
  const vectors: EventShapeVectors = {
    description:
      "Event shape (docs/protocol.md §2.2, \"The JSON text\" and the field table; §4 steps 1-3): each text is one event as a receiver reads it from a frame; the verdict is 'accepted' or the refusal: 'shape' (dropped at step 1), 'id' (step 2), 'signature' (step 3). Every event is signed by the key below over the value its fields have when read with the last of two equal names, so only the rule a case names refuses it.",
    key: { ed25519_secret: SECRET, ed25519: me.keys.ed25519 },
    cases: [...tokenCases(), ...duplicateCases(), ...depthCases(), ...tagCases(), ...fieldCases()],
  };
  return `${JSON.stringify(vectors, null, 2)}\n`;
}
