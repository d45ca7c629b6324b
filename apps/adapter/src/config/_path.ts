/**
 * Key paths as they appear in messages: `mcp_sources[0].env.DATA_DIR`, with keys that are not
 * plain identifiers quoted (`schema_overrides["files/read"]`).
 * @module
 */

/** A path into the YAML document: map keys and sequence indexes. */
export type KeyPath = readonly (string | number)[];

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Formats a path for a message; `''` for the document itself. */
export function _formatPath(path: KeyPath): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (PLAIN_KEY.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

/**
 * True for values that must never be shown in a message or a log: everything under an
 * `mcp_sources[i].env` or `mcp_sources[i].auth` mapping except `auth.type` (a wrong `token_env`
 * is often the token itself), and any key that names a secret.
 */
export function _isSecretPath(path: KeyPath): boolean {
  if (path[0] === 'mcp_sources' && path[2] === 'env') return true;
  if (path[0] === 'mcp_sources' && path[2] === 'auth') return !(path.length === 4 && path[3] === 'type');
  return path.some(
    (part) => typeof part === 'string' && /token|secret|password|passwd|api_?key|credential/i.test(part),
  );
}
