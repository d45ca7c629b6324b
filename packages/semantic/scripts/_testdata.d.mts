/** testdata/ at the repository root. */
export declare const TESTDATA: string;
/** The recorded tools/list answers of real MCP servers, one JSON file per server. */
export declare const SERVERS_DIR: string;
/** The MetaTool retrieval sets (`metatool-single.json`, `metatool-multi.json`), stored gzipped. */
export declare const RETRIEVAL_DIR: string;
/** Parses a JSON file; `.gz` is gunzipped, and a plain name stored only as `<name>.gz` is read from there. */
export declare function readJsonFile(file: string): unknown;
