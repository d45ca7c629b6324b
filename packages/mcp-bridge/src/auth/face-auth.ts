/**
 * Who may use the HTTP MCP face, and which tools (docs/security.md, "The MCP face over HTTP").
 * Two modes: one static bearer token (every holder is the same principal, with every tool), or an
 * OAuth 2.1 resource server (see {@link OAuthFaceAuth}): a JWT per request, a principal per
 * subject, tools by scope and by per-principal grants.
 * @module
 */

/** Who is calling, once authenticated. */
export interface FacePrincipal {
  /** Stable id: `static` for the static token, `<issuer> <subject>` for OAuth. */
  id: string;
  /** What the principal may call: capability patterns (`a.b.*`, `*`), as in `access.grants`. */
  capabilities: readonly string[];
  /**
   * True when this principal stands for every client of the face (the static token, one secret
   * they all share): the face's caps per principal do not apply to it, only its ceilings
   * (docs/security.md, "Fair shares between principals").
   */
  shared?: boolean;
}

/** A refusal, as the HTTP answer says it. */
export interface FaceAuthRefusal {
  status: 401 | 403;
  /** The `WWW-Authenticate` header (RFC 6750 §3, with `resource_metadata` for OAuth). */
  wwwAuthenticate: string;
  /** What was wrong, for the JSON-RPC error message. */
  message: string;
}

/** The verdict of {@link FaceAuth.authenticate}. */
export type FaceAuthVerdict =
  | { ok: true; principal: FacePrincipal }
  | { ok: false; refusal: FaceAuthRefusal };

/** The face's authentication and tool authorization. */
export interface FaceAuth {
  /** Checks the request's `Authorization` header. */
  authenticate(authorization: string | undefined): Promise<FaceAuthVerdict>;
  /**
   * Whether `principal` may use what needs `capability` (a tool, a resource, a prompt…); a 403
   * refusal when not, whose message names `what` was asked for (default: the tool).
   */
  authorize(principal: FacePrincipal, capability: string, what?: string): FaceAuthRefusal | undefined;
  /**
   * The OAuth protected resource metadata (RFC 9728) and the path it is served at, when the face
   * is an OAuth resource server.
   */
  metadata?: { path: string; document: Record<string, unknown> };
}

/** The bearer token of an `Authorization` header, or why there is none. */
export function bearerToken(
  header: string | undefined,
): { ok: true; token: string } | { ok: false; message: string } {
  if (header === undefined)
    return { ok: false, message: 'expected an Authorization: Bearer <token> header, got none' };
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (match === null)
    return { ok: false, message: 'expected an Authorization header of the form "Bearer <token>"' };
  return { ok: true, token: match[1]! };
}
