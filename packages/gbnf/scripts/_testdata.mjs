// The repository's vendored test data (testdata/ at the root; the source, licence and sha256 of
// every file are in testdata/SOURCES.md). Tests, benches and the eval read it only through here.

/** testdata/ at the repository root, as a directory URL (this file is packages/gbnf/scripts/). */
export const TESTDATA = new URL('../../../testdata/', import.meta.url);

/** The recorded tools/list answers of real MCP servers, one JSON file per server. */
export const MCP_SERVERS = new URL('mcp-servers/', TESTDATA);

/** MaskBench dev: one JSON line per schema with valid and invalid instances, gzipped. */
export const MASKBENCH_DEV = new URL('jsonschema/maskbench-dev.jsonl.gz', TESTDATA);
