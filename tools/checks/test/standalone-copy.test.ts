// A copy of the tracked tree, alone in a fresh temporary folder (nothing beside it), runs the
// crypto package's vector tests with the repository's own vitest: they pass, and they read the
// copy's testdata/ (removing one vector file from the copy makes its test fail on that path).
// Only node_modules is linked to the repository's: installed dependencies are not test data.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackedFiles } from './_tracked-files.js';
import { REPO_ROOT } from './_workspace.js';

const PACKAGE = 'packages/crypto';
// The tests driven by vendored vectors (browser-entry.test.ts needs a build, so it is left out).
const VECTOR_TESTS = [
  'test/canonical-json.test.ts',
  'test/ed25519-vectors.test.ts',
  'test/nip44.test.ts',
  'test/wycheproof-primitives.test.ts',
  'test/x25519.test.ts',
  'test/protocol-doc-signatures.test.ts',
  'test/protocol-doc-encryption.test.ts',
  'test/delegation-vectors.test.ts',
  'test/protocol-doc-delegation.test.ts',
];
const VITEST = join(REPO_ROOT, 'node_modules/vitest/vitest.mjs');

interface VitestJson {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; status: string; message: string }[];
}

let parent: string;
let copy: string;

/** Runs the repository's vitest on `files` of the copy's crypto package, cwd and root the copy. */
function runVitest(files: string[]): { report: VitestJson; output: string } {
  const cwd = join(copy, PACKAGE);
  // The outer vitest's variables would make the inner one think it is a worker.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
  const reportFile = join(cwd, '.vitest-report.json');
  rmSync(reportFile, { force: true });
  const result = spawnSync(
    process.execPath,
    [VITEST, 'run', '--root', cwd, '--reporter=json', `--outputFile=${reportFile}`, ...files],
    { cwd, env: { ...env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 150_000, maxBuffer: 64 * 1024 * 1024 },
  );
  const output = `${result.stdout}\n${result.stderr}`;
  if (!existsSync(reportFile)) {
    throw new Error(
      `vitest in the copy wrote no report (exit ${result.status}, ${result.error ?? 'no error'}):\n${output}`,
    );
  }
  return { report: JSON.parse(readFileSync(reportFile, 'utf8')) as VitestJson, output };
}

beforeAll(() => {
  parent = mkdtempSync(join(tmpdir(), 'xp-standalone-'));
  copy = join(parent, 'repo');
  for (const file of trackedFiles(REPO_ROOT)) {
    const from = join(REPO_ROOT, file);
    if (!existsSync(from)) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(from, join(copy, file));
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  symlinkSync(join(REPO_ROOT, PACKAGE, 'node_modules'), join(copy, PACKAGE, 'node_modules'), 'dir');
});

afterAll(() => {
  if (parent) rmSync(parent, { recursive: true, force: true });
});

describe('a standalone copy of the repository', () => {
  it('stands alone: its parent folder holds nothing else, and it has testdata/ but no shared folder', () => {
    expect(readdirSync(parent)).toEqual(['repo']);
    expect(existsSync(join(copy, 'testdata/SOURCES.md'))).toBe(true);
    expect(existsSync(join(parent, 'shared'))).toBe(false);
  });

  it("passes the crypto package's vector tests", () => {
    const { report, output } = runVitest(VECTOR_TESTS);
    expect(report.numFailedTests, output).toBe(0);
    expect(report.numPassedTests).toBe(report.numTotalTests);
    expect(report.numPassedTests).toBeGreaterThan(400);
    expect(report.testResults.map((r) => r.name.slice(join(copy, PACKAGE).length + 1)).sort()).toEqual(
      [...VECTOR_TESTS].sort(),
    );
    // As long as the inner vitest may take (runVitest's bound): nine files on a loaded machine.
  }, 150_000);

  it("reads the copy's own testdata/: without one of its vector files, that test fails on the copy's path", () => {
    const missing = join(copy, 'testdata/vectors/x25519_test.json');
    rmSync(missing);
    const { report, output } = runVitest(['test/x25519.test.ts']);
    expect(report.numPassedTests, output).toBe(0);
    expect(report.testResults[0]?.status).toBe('failed');
    const message = report.testResults[0]?.message ?? '';
    expect(message).toContain('ENOENT');
    expect(message).toContain(missing);
  });
});
