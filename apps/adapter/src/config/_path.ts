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
 * `mcp_sources[i].env` or `mcp_sources[i].auth` mapping, and any key that names a secret.
 */
export function _isSecretPath(path: KeyPath): boolean {
  for (let i = 0; i < path.length; i++) {
    const part = path[i];
    if (typeof part !== 'string') continue;
    if (i === 2 && path[0] === 'mcp_sources' && (part === 'env' || part === 'auth')) return true;
    if (/token|secret|password|passwd|api_?key|credential/i.test(part) && part !== 'token_env') return true;
  }
  return false;
}
