/**
 * The OAuth resource server of the MCP face (`@xprotocol/mcp-bridge`'s `OAuthFaceAuth`), checking
 * `Authorization` headers against a JWKS served on loopback: tokens signed with the real key but
 * with odd claims or odd JSON (duplicate keys, `__proto__`, deep nesting, non-objects, lone
 * surrogates, invalid UTF-8), tokens changed after signing (a character, a segment, the segment
 * count), tokens signed the wrong way (`alg: none`, HMAC keyed with the public key), and headers
 * of any shape and size. The rule: `authenticate` never throws; a refusal is 401 or 403 with a
 * `WWW-Authenticate` that is one well-formed `Bearer` challenge naming the resource metadata, with
 * no line break and no part of the token's signature; and a principal comes only from a token
 * whose signed segments are untouched, whose `alg` is `EdDSA`, whose `iss` is the issuer, whose
 * `aud` names the resource, whose `exp` is to come and whose `sub` is a non-empty string.
 * @module
 */
import { createHmac, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthFaceAuth } from '@xprotocol/mcp-bridge';
import fc from 'fast-check';
import { anyText, mutate, mutation } from '../arbitraries.js';
import { type FuzzTarget, rule } from '../target.js';

const ISSUER = 'https://issuer.fuzz.example';
const RESOURCE = 'https://face.fuzz.example/mcp';
const KID = 'fuzz-key-1';
/** `clockToleranceSeconds` of the checker. */
const TOLERANCE = 30;

/** One input: the `Authorization` header, and the signed segments a principal may come from. */
export interface TokenInput {
  authorization: string | undefined;
  /** `<header>.<payload>` as signed, when the token is signed with the real key. */
  signed?: string;
  header?: unknown;
  payload?: unknown;
}

export const oauthToken: FuzzTarget<TokenInput> = {
  name: 'oauth-token',
  rule: 'an Authorization header is answered with a principal or a well-formed 401/403 challenge, never a throw; a principal only from an untouched EdDSA token of the issuer, for this resource, not expired, with a non-empty string subject',
  weight: 4,
  async open() {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid: KID, alg: 'EdDSA', use: 'sig' };
    const jwks = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const auth = new OAuthFaceAuth({
      issuer: ISSUER,
      resource: RESOURCE,
      jwksUrl: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`,
      clockToleranceSeconds: TOLERANCE,
      grants: [{ subject: 'alice', capabilities: ['com.fuzz.read'] }],
    });
    const metadataUrl = new URL(`/.well-known/oauth-protected-resource/mcp`, RESOURCE).href;
    return {
      arbitrary: _inputs(privateKey, String(jwk.x)),
      check: async (input: TokenInput) => {
        const verdict = await auth.authenticate(input.authorization);
        const what = `for ${JSON.stringify(input.authorization?.slice(0, 300))}`;
        if (!verdict.ok) {
          const { status, wwwAuthenticate, message } = verdict.refusal;
          rule(status === 401 || status === 403, `status ${status} ${what}`);
          rule(typeof message === 'string' && message !== '', `a refusal without a message ${what}`);
          rule(
            /^Bearer [a-z_]+="[^"\\\r\n]*"(, [a-z_]+="[^"\\\r\n]*")*$/.test(wwwAuthenticate),
            `a malformed WWW-Authenticate ${JSON.stringify(wwwAuthenticate.slice(0, 300))} ${what}`,
          );
          rule(
            wwwAuthenticate.includes(`resource_metadata="${metadataUrl}"`),
            `no resource_metadata ${what}`,
          );
          const signature = /^Bearer\s+[^.\s]*\.[^.\s]*\.(\S{16,})/i.exec(input.authorization ?? '')?.[1];
          rule(
            signature === undefined || !(wwwAuthenticate + message).includes(signature),
            `the refusal repeats the token's signature ${what}`,
          );
          return;
        }
        rule(input.signed !== undefined, `a principal from a token not signed with the key ${what}`);
        const token = /^Bearer +(\S+)\s*$/i.exec(input.authorization ?? '')?.[1] ?? '';
        rule(token.startsWith(`${input.signed}.`), `a principal from a token changed after signing ${what}`);
        const header = (input.header ?? {}) as Record<string, unknown>;
        const claims = (input.payload ?? {}) as Record<string, unknown>;
        rule(
          header.alg === 'EdDSA',
          `a principal from a token with alg ${JSON.stringify(header.alg)} ${what}`,
        );
        rule(claims.iss === ISSUER, `a principal from the issuer ${JSON.stringify(claims.iss)} ${what}`);
        const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
        rule(
          audiences.includes(RESOURCE),
          `a principal for the audience ${JSON.stringify(claims.aud)} ${what}`,
        );
        const now = Date.now() / 1000;
        rule(
          typeof claims.exp === 'number' && claims.exp > now - TOLERANCE - 1,
          `a principal with exp ${claims.exp} ${what}`,
        );
        rule(
          claims.nbf === undefined || (typeof claims.nbf === 'number' && claims.nbf <= now + TOLERANCE + 1),
          `a principal with nbf ${JSON.stringify(claims.nbf)} ${what}`,
        );
        rule(
          typeof claims.sub === 'string' && claims.sub !== '',
          `a principal with sub ${JSON.stringify(claims.sub)} ${what}`,
        );
        rule(
          verdict.principal.id === `${ISSUER} ${claims.sub}`,
          `the principal ${verdict.principal.id} ${what}`,
        );
      },
      async close() {
        await new Promise<void>((resolve) => jwks.close(() => resolve()));
      },
    };
  },
};

/** Interesting claim values: near misses of the right ones, and wrong types. */
const CLAIM_VALUES: Record<string, unknown[]> = {
  iss: [ISSUER, `${ISSUER}/`, ISSUER.toUpperCase(), '', [ISSUER], null],
  aud: [RESOURCE, [RESOURCE], ['other', RESOURCE], `${RESOURCE}/`, [], 'other', null, { RESOURCE }],
  sub: ['alice', '', 'bob', 123, ['alice'], null, { id: 'alice' }, ' '],
  exp: ['soon', -1, 0, 1e308, Number.MAX_SAFE_INTEGER, 1.5, null, [1]],
  nbf: [9e15, 0, 'now', null, -1],
  iat: [9e15, 'yesterday', null],
  scope: ['com.fuzz.read com.fuzz.*', '*', '', 'openid mcp', 42, ['com.fuzz.read']],
  scp: [['com.fuzz.read', 7], 'com.fuzz.read', null],
};
const HEADER_VALUES: Record<string, unknown[]> = {
  alg: ['EdDSA', 'none', 'HS256', 'RS256', 'ES256', 'eddsa', '', null],
  kid: [KID, 'other', '', 42, null, 'k'.repeat(5000)],
  typ: ['JWT', 'at+jwt', 'JWE', 42],
  crit: [['b64'], ['exp'], [], 'b64'],
  b64: [false, true],
  jku: ['http://127.0.0.1:1/evil.json'],
  jwk: [{ kty: 'OKP', crv: 'Ed25519', x: 'A'.repeat(43) }],
};
/** JSON texts a parser might take differently from another. */
const ODD_JSON = [
  '{"alg":"none","alg":"EdDSA","kid":"fuzz-key-1"}',
  '{"__proto__":{"alg":"none"},"alg":"EdDSA"}',
  `{"alg":"EdDSA","x":${'['.repeat(3000)}${']'.repeat(3000)}}`,
  '\ufeff{"alg":"EdDSA"}',
  '{"alg":"EdDSA","x":"\\ud800"}',
  '[]',
  '"EdDSA"',
  'null',
  '{"exp":1e400}',
  `{"big":"${'x'.repeat(12_000)}"}`,
];

function _inputs(key: KeyObject, publicX: string): fc.Arbitrary<TokenInput> {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: ISSUER,
    aud: RESOURCE,
    sub: 'alice',
    exp: now + 86_400,
    iat: now,
    scope: 'com.fuzz.read',
  };
  const header = { alg: 'EdDSA', kid: KID, typ: 'JWT' };
  const changed = (base: Record<string, unknown>, values: Record<string, unknown[]>) =>
    fc.oneof(
      fc.constant(base),
      mutation(Object.keys(values)).map((m) => mutate(base, m)),
      fc
        .tuple(fc.constantFrom(...Object.keys(values)), fc.nat())
        .map(([field, at]) => ({ ...base, [field]: values[field]![at % values[field]!.length] })),
      fc.constantFrom(...Object.keys(values)).map((field) => ({ ...base, [field]: _relative(field, now) })),
    );
  const text = (value: fc.Arbitrary<unknown>) =>
    fc.oneof(
      { weight: 8, arbitrary: value.map((v) => JSON.stringify(v)) },
      { weight: 1, arbitrary: fc.constantFrom(...ODD_JSON) },
    );
  // Signed with the real key: the claims and the header decide.
  const signed = fc
    .tuple(text(changed(header, HEADER_VALUES)), text(changed(claims, CLAIM_VALUES)), _scheme())
    .map(([headerText, payloadText, scheme]) => {
      const input = `${_b64(headerText)}.${_b64(payloadText)}`;
      const signature = sign(null, Buffer.from(input), key).toString('base64url');
      return {
        authorization: `${scheme}${input}.${signature}`,
        signed: input,
        header: _parse(headerText),
        payload: _parse(payloadText),
      };
    });
  const signedInput = `${_b64(JSON.stringify(header))}.${_b64(JSON.stringify(claims))}`;
  const valid = `${signedInput}.${sign(null, Buffer.from(signedInput), key).toString('base64url')}`;
  // Changed after signing: no principal unless the signed segments are untouched.
  const tampered = fc
    .tuple(
      fc.nat(),
      fc.nat(),
      fc.constantFrom('flip', 'drop', 'add', 'swap', 'space', 'pad', 'none-alg', 'hmac', 'resign-other'),
    )
    .map(([at, part, how]) => ({
      authorization: `Bearer ${_tamper(valid, at, part, how, publicX)}`,
      signed: signedInput,
      header,
      payload: claims,
    }));
  // Any header at all.
  const anyHeader = fc
    .oneof(
      anyText,
      anyText.map((t) => `Bearer ${t}`),
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        'bearer x.y.z',
        'Basic YWxpY2U6cHc=',
        'Bearer a.b',
        'Bearer ...',
        'Bearer a.b.c.d.e',
      ),
      fc.integer({ min: 16_000, max: 40_000 }).map((n) => `Bearer ${'a'.repeat(n)}`),
      fc
        .integer({ min: 1, max: 3000 })
        .map(
          (n) => `Bearer ${_b64('{"alg":"EdDSA"}')}.${_b64(`{"a":${'['.repeat(n)}${']'.repeat(n)}}`)}.sig`,
        ),
    )
    .map((authorization) => ({ authorization }));
  return fc.oneof(
    { weight: 12, arbitrary: signed },
    { weight: 6, arbitrary: tampered },
    { weight: 4, arbitrary: anyHeader },
    { weight: 1, arbitrary: fc.constant({ authorization: undefined }) },
  );
}

/** `Bearer ` as clients write it, and as some do. */
function _scheme(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant('Bearer ') },
    { weight: 3, arbitrary: fc.constantFrom('bearer ', 'BEARER ', 'Bearer   ') },
    { weight: 1, arbitrary: fc.constantFrom('Bearer\t', 'Token ', '') },
  );
}

/** A claim made relative to now: just expired, barely valid, not yet valid. */
function _relative(field: string, now: number): unknown {
  if (field === 'exp') return now - TOLERANCE - 5;
  if (field === 'nbf') return now + TOLERANCE + 60;
  if (field === 'iat') return now + 86_400;
  return now;
}

/** `token` changed after signing in one way. */
function _tamper(token: string, at: number, part: number, how: string, publicX: string): string {
  const parts = token.split('.');
  const i = part % 3;
  const segment = parts[i]!;
  switch (how) {
    case 'flip': {
      const k = at % Math.max(1, segment.length);
      parts[i] = `${segment.slice(0, k)}${segment[k] === 'A' ? 'B' : 'A'}${segment.slice(k + 1)}`;
      return parts.join('.');
    }
    case 'drop':
      return parts.filter((_, j) => j !== i).join('.');
    case 'add':
      return [...parts.slice(0, i + 1), parts[i]!, ...parts.slice(i + 1)].join('.');
    case 'swap':
      return [parts[1], parts[0], parts[2]].join('.');
    case 'space':
      return `${token.slice(0, at % token.length)} ${token.slice(at % token.length)}`;
    case 'pad':
      parts[i] = `${segment}==`;
      return parts.join('.');
    case 'none-alg':
      return `${_b64(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${parts[1]}.`;
    case 'hmac': {
      // The old confusion: HMAC keyed with the public key, under an HMAC alg.
      const input = `${_b64(JSON.stringify({ alg: 'HS256', kid: KID }))}.${parts[1]}`;
      return `${input}.${createHmac('sha256', publicX).update(input).digest('base64url')}`;
    }
    default: {
      // Another payload under the original signature.
      const other = _b64(JSON.stringify({ iss: ISSUER, aud: RESOURCE, sub: 'mallory', exp: 9e9 }));
      return [parts[0], other, parts[2]].join('.');
    }
  }
}

function _b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** `text` as the checker reads a segment: UTF-8 through a TextDecoder, which drops a leading BOM. */
function _parse(text: string): unknown {
  try {
    return JSON.parse(text.startsWith('\ufeff') ? text.slice(1) : text);
  } catch {
    return undefined;
  }
}
