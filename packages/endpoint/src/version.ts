/**
 * The package's version, recorded in every contract's `source.adapter_version` and the announce.
 * @module
 */
import manifest from '../package.json' with { type: 'json' };

/** The published version of `@xprotocol/endpoint`. */
export const ENDPOINT_VERSION: string = manifest.version;
