// Where a bench run writes its JSON: an untracked file by default (a run never rewrites the
// tracked docs/performance.json), the docs file only when asked with --update-docs; and the bin's
// --help says so (a real process).
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_JSON, DOCS_JSON, jsonOutputs } from '../src/outputs.js';

const here = import.meta.dirname;

describe('jsonOutputs', () => {
  test('by default: results/performance.json in the bench package, not the docs file', () => {
    expect(DEFAULT_JSON).toBe(resolve(here, '..', 'results', 'performance.json'));
    expect(DOCS_JSON).toBe(resolve(here, '..', '..', '..', 'docs', 'performance.json'));
    expect(jsonOutputs({})).toEqual([DEFAULT_JSON]);
  });

  test('--json FILE writes there instead; --update-docs writes the docs file too', () => {
    expect(jsonOutputs({ json: 'out.json' })).toEqual([resolve('out.json')]);
    expect(jsonOutputs({ updateDocs: true })).toEqual([DEFAULT_JSON, DOCS_JSON]);
    expect(jsonOutputs({ json: 'out.json', updateDocs: true })).toEqual([resolve('out.json'), DOCS_JSON]);
  });
});

test('the bin --help names both files and runs nothing', () => {
  const run = spawnSync(process.execPath, [join(here, '..', 'dist', 'bin.js'), '--help'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain('--update-docs');
  expect(run.stdout).toContain('results/performance.json');
  expect(run.stdout).not.toContain('machine:');
});
