/** testdata/ at the repository root, as a directory URL. */
export declare const TESTDATA: URL;
/** The recorded tools/list answers of real MCP servers, one JSON file per server. */
export declare const MCP_SERVERS: URL;
/** MaskBench dev: one JSON line per schema with valid and invalid instances, gzipped. */
export declare const MASKBENCH_DEV: URL;
