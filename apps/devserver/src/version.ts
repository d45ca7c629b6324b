/**
 * The devserver's version (its package.json), shown by `--version`.
 * @module
 */
import manifest from '../package.json' with { type: 'json' };

/** The published version of `@xprotocol/devserver`. */
export const DEVSERVER_VERSION: string = manifest.version;
