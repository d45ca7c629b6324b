// knip (pinned, runs on Node 20.19) finds no unused file, export or dependency in the workspace;
// exceptions are documented in knip.jsonc. A synthetic package shows the check can fail.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './_workspace.js';

// The pinned devDependency's bin, by path (knip's exports map does not expose package.json).
const KNIP = join(import.meta.dirname, '../node_modules/knip/bin/knip.js');

interface KnipIssue {
  file: string;
  files: { name: string }[];
  dependencies: { name: string }[];
  exports: { name: string }[];
  [category: string]: unknown;
}

function knip(directory: string): Promise<{ code: number; issues: KnipIssue[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [KNIP, '--no-progress', '--reporter', 'json', '--directory', directory],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        try {
          resolve({ code, issues: (JSON.parse(stdout) as { issues: KnipIssue[] }).issues, stderr });
        } catch {
          reject(new Error(`knip printed no JSON report (exit ${code}): ${stderr || stdout}`));
        }
      },
    );
  });
}

/** One line per finding, e.g. `src/a.ts: exports forgotten`. */
function findings(issues: KnipIssue[]): string[] {
  const out: string[] = [];
  for (const issue of issues) {
    for (const [category, value] of Object.entries(issue)) {
      if (category === 'file' || !Array.isArray(value) || value.length === 0) continue;
      out.push(`${issue.file}: ${category} ${value.map((v: { name: string }) => v.name).join(', ')}`);
    }
  }
  return out.sort();
}

describe('knip', () => {
  const fixture = mkdtempSync(join(tmpdir(), 'xp-knip-'));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it('reports an unused file, export and dependency in a synthetic package', async () => {
    mkdirSync(join(fixture, 'src'));
    writeFileSync(
      join(fixture, 'package.json'),
      JSON.stringify({
        name: 'fixture',
        version: '0.0.0',
        type: 'module',
        exports: { '.': './src/index.ts' },
        dependencies: { 'left-pad': '1.3.0' },
      }),
    );
    writeFileSync(join(fixture, 'src/index.ts'), "export { used } from './helpers.js';\n");
    writeFileSync(join(fixture, 'src/helpers.ts'), 'export const used = 1;\nexport const forgotten = 2;\n');
    writeFileSync(join(fixture, 'src/orphan.ts'), 'export const orphan = 3;\n');
    const result = await knip(fixture);
    expect(result.code).not.toBe(0);
    expect(findings(result.issues)).toEqual([
      'package.json: dependencies left-pad',
      'src/helpers.ts: exports forgotten',
      'src/orphan.ts: files src/orphan.ts',
    ]);
  });

  it('finds nothing unused in the workspace (exceptions: knip.jsonc)', async () => {
    const result = await knip(REPO_ROOT);
    expect(findings(result.issues)).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
  });
});
