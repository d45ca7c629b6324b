/**
 * Where a bench run writes its JSON document: by default an untracked file in this package
 * (`results/performance.json`, git-ignored), so a run never rewrites the tracked
 * `docs/performance.json`; that file only with `--update-docs`, when a run is meant to become
 * the published one (docs/performance.md, "The harness").
 * @module
 */
import { resolve } from 'node:path';

const _PACKAGE = resolve(import.meta.dirname, '..');

/** The default JSON output: `tools/bench/results/performance.json`. */
export const DEFAULT_JSON = resolve(_PACKAGE, 'results', 'performance.json');

/** The published run: `docs/performance.json`. */
export const DOCS_JSON = resolve(_PACKAGE, '..', '..', 'docs', 'performance.json');

/** The files to write the run's JSON to: `--json FILE` or the default, and the docs file when asked. */
export function jsonOutputs(flags: { json?: string; updateDocs?: boolean }): string[] {
  const first = flags.json === undefined ? DEFAULT_JSON : resolve(flags.json);
  return flags.updateDocs ? [first, DOCS_JSON] : [first];
}
