/**
 * The relay's version (its package.json), shown by `xprotocol-relay --version`.
 * @module
 */
import manifest from '../package.json' with { type: 'json' };

/** The published version of `@xprotocol/relay`. */
export const RELAY_VERSION: string = manifest.version;
