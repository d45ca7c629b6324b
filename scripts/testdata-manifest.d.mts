/** One row of the file table in testdata/SOURCES.md. */
export interface ManifestRow {
  file: string;
  source: string;
  licence: string;
  sha256: string;
}
/** The repository root. */
export declare const REPO_ROOT: string;
/** The folder of vendored test data, relative to the repository root. */
export declare const TESTDATA_DIR: string;
/** The provenance file inside testdata/; not listed in its own table. */
export declare const SOURCES_FILE: string;
/** Every file under `dir` except SOURCES.md, sorted, `/`-separated and relative to `dir`. */
export declare function listTestdataFiles(dir: string): string[];
/** The sha256 of a file's bytes, lowercase hex. */
export declare function sha256File(path: string): string;
/** The rows of the file table in SOURCES.md text; throws when the table is missing or malformed. */
export declare function parseManifest(markdown: string): ManifestRow[];
/** SOURCES.md text with its file table replaced by `rows`. */
export declare function renderManifest(markdown: string, rows: ManifestRow[]): string;
/** The table as it should be for the files in `dir`, the files without a source, and the listed files that are gone. */
export declare function computeManifest(
  dir: string,
  rows: ManifestRow[],
): { rows: ManifestRow[]; unsourced: string[]; removed: string[] };
