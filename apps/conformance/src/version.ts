/**
 * The conformance suite's version (its package.json), shown by `xprotocol-conformance --version`.
 * @module
 */
import manifest from '../package.json' with { type: 'json' };

/** The published version of `@xprotocol/conformance`. */
export const CONFORMANCE_VERSION: string = manifest.version;
