/**
 * The simple mode of the face's authentication: one static bearer token. Every holder is the same
 * principal and may call every tool the face lists. Tokens are compared by digest, so a guess
 * takes the same time whatever its length or content.
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken, type FaceAuth, type FaceAuthVerdict } from './face-auth.js';

/** A {@link FaceAuth} that admits requests carrying `token`. */
export function staticBearerAuth(token: string): FaceAuth {
  if (token === '') throw new Error('mcp_server bearer token: expected a non-empty string, got an empty one');
  const expected = _digest(token);
  return {
    async authenticate(header): Promise<FaceAuthVerdict> {
      const given = bearerToken(header);
      const message = !given.ok
        ? given.message
        : timingSafeEqual(_digest(given.token), expected)
          ? undefined
          : 'the bearer token is not valid';
      if (message === undefined)
        return { ok: true, principal: { id: 'static', capabilities: ['*'], shared: true } };
      return { ok: false, refusal: { status: 401, wwwAuthenticate: 'Bearer realm="mcp"', message } };
    },
    authorize: () => undefined,
  };
}

function _digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
