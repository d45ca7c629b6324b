/**
 * X25519 keys, the low-order refusal and the conversation key, written from docs/protocol.md §4
 * ("Low-order X25519 keys") and §5 alone, on node:crypto. It imports nothing from this
 * repository: it is one part of an independent XProtocol client that proves the document is
 * enough to interoperate.
 *
 * @module
 */
import { createHash, createHmac, createPrivateKey, createPublicKey, diffieHellman } from 'node:crypto';
import { RuleError } from './canonical-json.mjs';
import { keyBytes } from './ed25519.mjs';

const PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');
const P = 2n ** 255n - 19n;

/** The u-coordinates (mod p) of the low-order points: 0, 1, p − 1 and the two of order 8 (§4). */
const LOW_ORDER_U = new Set(
  [
    '0000000000000000000000000000000000000000000000000000000000000000',
    '0100000000000000000000000000000000000000000000000000000000000000',
    'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
    'e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800',
    '5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157',
  ].map((hex) => uOf(Buffer.from(hex, 'hex'))),
);

/** @param {Buffer} key the u-coordinate as RFC 7748 §5 decodes it: bit 255 cleared, mod p */
function uOf(key) {
  const le = BigInt(`0x${Buffer.from(key).reverse().toString('hex')}`);
  return (le & (2n ** 255n - 1n)) % P;
}

/**
 * Whether a 32-byte X25519 public key is of low order under any encoding (§4).
 *
 * @param {Buffer} key
 */
export function isLowOrder(key) {
  return LOW_ORDER_U.has(uOf(key));
}

/**
 * An X25519 key pair from its 32-byte secret (stored unclamped, §5).
 *
 * @param {Buffer} secret
 */
export function x25519FromSecret(secret) {
  if (secret.length !== 32) throw new RuleError('§5', `an X25519 secret is 32 bytes, got ${secret.length}`);
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, secret]),
    format: 'der',
    type: 'pkcs8',
  });
  const raw = createPublicKey(privateKey)
    .export({ format: 'der', type: 'spki' })
    .subarray(SPKI_PREFIX.length);
  return { secret, publicKey: `x25519:${raw.toString('hex')}`, privateKey };
}

/**
 * X25519(my secret, their public), refusing a low-order key (§5, RFC 7748 §6.1).
 *
 * @param {import('node:crypto').KeyObject} myPrivateKey
 * @param {string} theirPublic an `x25519:` key string
 */
export function sharedSecret(myPrivateKey, theirPublic) {
  const raw = keyBytes('x25519', theirPublic);
  if (isLowOrder(raw)) throw new RuleError('§5', `${theirPublic} is of low order and is refused`);
  const publicKey = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  const secret = diffieHellman({ privateKey: myPrivateKey, publicKey });
  if (secret.every((b) => b === 0)) throw new RuleError('§5', 'the shared secret is all zero');
  return secret;
}

/**
 * The conversation salt of §5: SHA-256("xp/1/conv" ‖ lower ‖ higher) of the two Ed25519 keys.
 *
 * @param {string} edA @param {string} edB `ed25519:` key strings
 */
export function conversationSalt(edA, edB) {
  const [lower, higher] = [keyBytes('ed25519', edA), keyBytes('ed25519', edB)].sort(Buffer.compare);
  return createHash('sha256').update(Buffer.from('xp/1/conv', 'ascii')).update(lower).update(higher).digest();
}

/**
 * The conversation key of §5 between me and a peer.
 *
 * @param {import('node:crypto').KeyObject} myX25519Private
 * @param {string} theirX25519 @param {string} myEd25519 @param {string} theirEd25519
 */
export function conversationKey(myX25519Private, theirX25519, myEd25519, theirEd25519) {
  const shared = sharedSecret(myX25519Private, theirX25519);
  return createHmac('sha256', conversationSalt(myEd25519, theirEd25519)).update(shared).digest();
}
