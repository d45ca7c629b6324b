/**
 * Capabilities (docs/design.md §4): dotted strings; a grant `a.b.*` matches `a.b.x` and
 * deeper but not `a.b`; `*` alone matches everything (allowed, but worth a warning).
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
