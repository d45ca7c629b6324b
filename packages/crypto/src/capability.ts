/**
 * Capabilities (docs/design.md §4): dotted strings; a grant `a.b.*` matches `a.b.x` and deeper
 * but not `a.b`; `*` alone matches everything. One grammar for the access grants of an endpoint
 * and the capabilities of a key delegation (docs/protocol.md §11), which can only narrow along a
 * chain ({@link capabilityCovers}).
 * @module
 */

const CAPABILITY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const GRANT = /^(\*|[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*(\.\*)?)$/;

/** True for a required capability: dot-separated segments of `[A-Za-z0-9_-]+`, no wildcard. */
export function isValidCapability(text: unknown): text is string {
  return typeof text === 'string' && text.length <= 255 && CAPABILITY.test(text);
}

/** True for a grant: a capability, optionally ending in `.*`, or `*` alone. */
export function isValidGrant(text: unknown): text is string {
  return typeof text === 'string' && text.length <= 255 && GRANT.test(text);
}

/**
 * Whether a granted capability covers a required one.
 * @example
 * capabilityMatches('com.acme.*', 'com.acme.read'); // true
 * capabilityMatches('com.acme.*', 'com.acme'); // false
 * capabilityMatches('com.acme.read', 'com.acme.read'); // true
 */
export function capabilityMatches(granted: string, required: string): boolean {
  if (!isValidGrant(granted) || !isValidCapability(required)) return false;
  if (granted === '*') return true;
  if (granted.endsWith('.*')) return required.startsWith(granted.slice(0, -1));
  return granted === required;
}

/** Whether any of `grants` covers `required`. */
export function anyCapabilityMatches(grants: readonly string[], required: string): boolean {
  return grants.some((grant) => capabilityMatches(grant, required));
}

/**
 * Whether the grant `held` covers every capability the grant `delegated` would match: the rule
 * by which a delegation may only narrow its issuer's capabilities. `*` covers every grant and is
 * covered only by `*`; `a.*` covers `a.b`, `a.b.*` and `a.*`, never `a`; a capability without a
 * wildcard covers only itself. False when either is not a valid grant.
 * @example
 * capabilityCovers('com.acme.*', 'com.acme.docs.*'); // true
 * capabilityCovers('com.acme.docs.*', 'com.acme.*'); // false: that would widen it
 * capabilityCovers('com.acme.docs.read', 'com.acme.docs.*'); // false
 */
export function capabilityCovers(held: string, delegated: string): boolean {
  if (!isValidGrant(held) || !isValidGrant(delegated)) return false;
  if (held === '*' || held === delegated) return true;
  // `a.*` matches exactly the capabilities under `a.`; `delegated` (a capability or `b.*`) stays
  // inside that set when it starts with `a.` (`*` alone never does).
  return held.endsWith('.*') && delegated.startsWith(held.slice(0, -1));
}
