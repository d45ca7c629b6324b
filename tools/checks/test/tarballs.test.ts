// A clone is the product: every published package is packed the way `pnpm publish` packs it, the
// tarballs are checked (manifest, file list, publint, attw), then installed with plain npm into an
// empty project, where a user's first steps must work: import and require the libraries, translate a
// real MCP tool, run both CLIs and the devserver's offline demo; and installed globally
// (`npm i -g --prefix`), where each package gets its own copy of its dependencies, every bin must
// keep the command-line conventions (docs/cli.md). Needs `pnpm build` first (turbo builds every
// published package before this package's tests: they are its devDependencies).
// The project install is --prefer-offline: third-party packages come from the npm cache when it
// has them, else from the npm registry; the global install, after it, is --offline. See
// docs/release.md and docs/architecture.md, "Packaging".
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from './_installed-doc-plans.js';
import { InstalledDocs, installedRuns } from './_installed-docs.js';
import { readTarball } from './_tarball.js';
import { publishedPackages, REPO_ROOT, type WorkspacePackage } from './_workspace.js';

const WORK = mkdtempSync(join(tmpdir(), 'xprotocol-tarballs-'));
const PACKS = join(WORK, 'packs');
const PROJECT = join(WORK, 'project');
const BIN = join(PROJECT, 'node_modules', '.bin');
const PUBLISHED = publishedPackages();
const tarballOf = (p: WorkspacePackage) =>
  join(PACKS, `${p.manifest.name.replace(/^@/, '').replace('/', '-')}-${String(p.manifest.version)}.tgz`);

/** A tool as `@modelcontextprotocol/server-filesystem@2026.1.14` (MIT) lists it (tools/list, verbatim). */
const READ_TEXT_FILE = {
  name: 'read_text_file',
  title: 'Read Text File',
  description:
    "Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Use this tool when you need to examine the contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last N lines of a file. Operates on the file as text regardless of extension. Only works within allowed directories.",
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      path: { type: 'string' },
      tail: { description: 'If provided, returns only the last N lines of the file', type: 'number' },
      head: { description: 'If provided, returns only the first N lines of the file', type: 'number' },
    },
    required: ['path'],
  },
  annotations: { readOnlyHint: true },
  execution: { taskSupport: 'forbidden' },
  outputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { content: { type: 'string' } },
    required: ['content'],
    additionalProperties: false,
  },
};

/** The environment for child tools: without the npm_* settings pnpm passes down to scripts. */
function _cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return { ...env, NO_COLOR: '1', NO_UPDATE_NOTIFIER: '1' };
}

/** Runs a command and returns its exit status and output, whatever the status. */
function exec(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = _cleanEnv(),
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env, timeout: 120_000 });
  if (r.error) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) did not run: ${r.error.message}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs a command; throws with its output when it fails (or times out). */
function run(
  cmd: string,
  args: string[],
  cwd: string,
  timeoutMs = 120_000,
): { stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: _cleanEnv(), timeout: timeoutMs });
  if (r.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(' ')} (in ${cwd}) failed: exit ${r.status}, signal ${r.signal}, error ${r.error?.message}\n` +
        `stdout: ${r.stdout?.slice(-4000)}\nstderr: ${r.stderr?.slice(-4000)}`,
    );
  }
  return { stdout: r.stdout, stderr: r.stderr };
}

/** pnpm: the one running this test when there is one (npm_execpath), else the one on PATH. */
function pnpm(args: string[], cwd: string): { stdout: string; stderr: string } {
  const execPath = process.env.npm_execpath;
  return execPath && /pnpm/.test(execPath)
    ? run(process.execPath, [execPath, ...args], cwd)
    : run('pnpm', args, cwd);
}

/** Runs a script with this Node inside the installed project. */
const nodeIn = (args: string[], timeoutMs?: number) => run(process.execPath, args, PROJECT, timeoutMs);

const summary = new Map<string, { packedBytes: number; importMs?: number; heapBytes?: number }>();

beforeAll(() => {
  mkdirSync(PACKS, { recursive: true });
  for (const p of PUBLISHED) {
    pnpm(['pack', '--pack-destination', PACKS], join(REPO_ROOT, p.dir));
    summary.set(p.manifest.name, { packedBytes: statSync(tarballOf(p)).size });
  }
}, 300_000);

// Removing the installed project (thousands of files) can take more than the default 10 s on a
// loaded machine.
afterAll(() => {
  rmSync(WORK, { recursive: true, force: true });
  const lines = [...summary].map(([name, s]) => {
    const size = `${(s.packedBytes / 1024).toFixed(1)} kB`.padStart(11);
    const cost =
      s.importMs === undefined
        ? ''
        : `${s.importMs.toFixed(0).padStart(6)} ms ${`${((s.heapBytes ?? 0) / 2 ** 20).toFixed(1)} MB`.padStart(8)}`;
    return `${name.padEnd(26)} ${size} ${cost}`;
  });
  console.log(`package                      packed size  import   heap Δ\n${lines.join('\n')}`);
}, 120_000);

describe.each(PUBLISHED.map((p) => [p.manifest.name, p] as const))('%s tarball', (_name, p) => {
  const files = () => readTarball(tarballOf(p));
  const manifest = () =>
    JSON.parse(files().get('package/package.json')!.toString('utf8')) as Record<string, unknown>;

  it('has no workspace: range left (pnpm pack rewrites them to versions)', () => {
    const text = files().get('package/package.json')!.toString('utf8');
    expect(text, 'a workspace: range would not install from the registry').not.toContain('workspace:');
    const internal = Object.entries(manifest().dependencies ?? {}).filter(([n]) =>
      n.startsWith('@xprotocol/'),
    );
    for (const [name, range] of internal) expect(range, name).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('ships README.md, LICENSE (Apache-2.0) and every file its manifest points at, with types', () => {
    const f = files();
    expect(f.has('package/README.md'), 'README.md').toBe(true);
    expect(f.get('package/LICENSE')?.toString('utf8'), 'LICENSE').toContain('Apache License');
    const m = manifest();
    expect(m.types, 'a top-level "types"').toBeTypeOf('string');
    const targets: string[] = [String(m.main), String(m.types), ...Object.values((m.bin ?? {}) as object)];
    for (const [subpath, target] of Object.entries((m.exports ?? {}) as Record<string, unknown>)) {
      if (typeof target === 'string') {
        targets.push(target);
        continue;
      }
      const t = target as {
        import?: { types?: string; default?: string };
        require?: { types?: string; default?: string };
      };
      for (const side of ['import', 'require'] as const) {
        expect(t[side]?.types, `exports["${subpath}"].${side}.types`).toBeTypeOf('string');
        targets.push(t[side]!.types!, t[side]!.default!);
      }
    }
    for (const target of targets) expect(f.has(`package/${target.replace(/^\.\//, '')}`), target).toBe(true);
  });

  it('ships no tests, no sources and no source maps (maps would point at sources it does not ship)', () => {
    for (const path of files().keys()) {
      expect(path, 'a test file').not.toMatch(
        /(^|\/)(test|tests|__tests__|bench)\/|\.(test|spec|bench)\.[cm]?[jt]s$/,
      );
      expect(path, 'a source file').not.toMatch(/^package\/src\//);
      expect(path, 'a source map').not.toMatch(/\.map$/);
    }
  });

  it('passes publint (strict)', () => {
    run(join(REPO_ROOT, 'node_modules', '.bin', 'publint'), ['run', '--strict', tarballOf(p)], REPO_ROOT);
  });

  it('passes attw: types resolve under node16/nodenext from ESM and CJS, and bundlers', () => {
    // node10 is ignored: it cannot see subpath exports (and npm's own floor is Node 20.19).
    const out = run(
      join(REPO_ROOT, 'node_modules', '.bin', 'attw'),
      ['--profile', 'node16', '--format', 'ascii', tarballOf(p)],
      REPO_ROOT,
    );
    expect(out.stdout).toContain('node16 (from CJS)');
  });
});

describe('installed with npm from the tarballs into an empty project', () => {
  beforeAll(() => {
    mkdirSync(PROJECT, { recursive: true });
    const specs = Object.fromEntries(PUBLISHED.map((p) => [p.manifest.name, `file:${tarballOf(p)}`]));
    // overrides: the tarballs depend on each other by version; npm must take those from the
    // tarballs too, never from the registry.
    writeFileSync(
      join(PROJECT, 'package.json'),
      JSON.stringify(
        { name: 'tarball-consumer', private: true, dependencies: specs, overrides: specs },
        null,
        2,
      ),
    );
    run(
      'npm',
      ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
      PROJECT,
      480_000,
    );
  }, 600_000);

  // The answer a user's first translation must give: the kind, the inferred capability, the
  // annotations and quality score from @xprotocol/semantic, an exact grammar from @xprotocol/gbnf.
  const translation = `const out = translate.translateSource({
  name: 'filesystem', namespace: 'com.demo.fs', adapterVersion: '0.1.0', tools: [JSON.parse(process.argv[2])],
});
const c = out.contracts[0];
const answer = { kind: c?.kind, auth: c?.auth, score: c?.semantic?.description_quality_score, gbnf: c?.gbnf_status?.state, refused: out.refused };`;
  const expectTranslated = (answer: Record<string, unknown>) => {
    expect(answer).toMatchObject({
      kind: 'com.demo.fs.read_text_file',
      auth: { required_capability: 'com.demo.fs.read' },
      gbnf: 'exact',
      refused: [],
    });
    expect(answer.score).toBeTypeOf('number');
  };

  it('imports @xprotocol/translate from ESM and translates a real MCP tool', () => {
    writeFileSync(
      join(PROJECT, 'esm.mjs'),
      `import * as translate from '@xprotocol/translate';\n${translation}\nprocess.stdout.write(JSON.stringify(answer));`,
    );
    expectTranslated(JSON.parse(nodeIn(['esm.mjs', JSON.stringify(READ_TEXT_FILE)]).stdout));
  });

  it('require()s @xprotocol/translate from CommonJS: same answer, and one copy of the package per process', () => {
    writeFileSync(
      join(PROJECT, 'cjs.cjs'),
      `const translate = require('@xprotocol/translate');
${translation}
import('@xprotocol/translate').then((esm) => {
  process.stdout.write(JSON.stringify({
    answer,
    sameClass: esm.TranslateError === translate.TranslateError,
    sameFunction: esm.translateSource === translate.translateSource,
  }));
});`,
    );
    const r = JSON.parse(nodeIn(['cjs.cjs', JSON.stringify(READ_TEXT_FILE)]).stdout);
    expectTranslated(r.answer);
    expect(r.sameClass, 'require() and import() must share one TranslateError class').toBe(true);
    expect(r.sameFunction).toBe(true);
  });

  it('loads every exported entry of every package by import() and by require()', () => {
    const entries = PUBLISHED.flatMap((p) =>
      Object.keys(p.manifest.exports ?? {})
        .filter((s) => !s.endsWith('.json'))
        .map((s) => (s === '.' ? p.manifest.name : `${p.manifest.name}/${s.slice(2)}`)),
    );
    writeFileSync(
      join(PROJECT, 'entries.cjs'),
      `const entries = JSON.parse(process.argv[2]);
(async () => {
  for (const e of entries) {
    const viaRequire = Object.keys(require(e)).length;
    const viaImport = Object.keys(await import(e)).length;
    if (viaRequire === 0 || viaRequire !== viaImport) throw new Error(e + ': require() gave ' + viaRequire + ' names, import() ' + viaImport);
  }
  process.stdout.write(String(entries.length));
})().catch((e) => { console.error(e); process.exit(1); });`,
    );
    expect(nodeIn(['entries.cjs', JSON.stringify(entries)]).stdout).toBe(String(entries.length));
  });

  it('runs xprotocol-adapter --help, xprotocol-devserver --help and xprotocol-conformance --list from node_modules/.bin', () => {
    expect(run(join(BIN, 'xprotocol-adapter'), ['--help'], PROJECT).stdout).toContain(
      'Usage: xprotocol-adapter',
    );
    expect(run(join(BIN, 'xprotocol-devserver'), ['--help'], PROJECT).stdout).toContain(
      'xprotocol-devserver',
    );
    expect(run(join(BIN, 'xprotocol-conformance'), ['--list'], PROJECT).stdout).toContain('11. gbnf');
  });

  it("runs the adapter README's first example (keygen prints the public keys as JSON)", () => {
    const out = run(join(BIN, 'xprotocol-adapter'), ['keygen', '--output', './adapter.key'], PROJECT).stdout;
    expect(JSON.parse(out)).toMatchObject({ ed25519: expect.stringMatching(/^ed25519:[0-9a-f]{64}$/) });
    expect(statSync(join(PROJECT, 'adapter.key')).mode & 0o777).toBe(0o600);
  });

  it('runs the devserver demo to its first successful call (server-filesystem from the install)', () => {
    const { stdout, stderr } = run(join(BIN, 'xprotocol-devserver'), ['--demo'], PROJECT, 180_000);
    expect(stderr).toContain('answer');
    expect(stdout, stderr.slice(-2000)).toMatch(/hello/i);
  }, 200_000);

  it('imports @xprotocol/translate without evaluating the word vectors of @xprotocol/semantic/search', () => {
    // A module.register() load hook writes every URL Node loads; the search entry must not be one.
    const trace = join(WORK, 'loaded.txt');
    const hook = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(process.env.XP_TRACE, url + '\\n'); return next(url, context); }`;
    const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
    for (const [entry, expectSearch] of [
      ['@xprotocol/translate', false],
      ['@xprotocol/registry', false],
      ['@xprotocol/mcp-bridge', false], // its schema search loads them on the first search only
      ['@xprotocol/endpoint', false], // a facade over mcp-bridge: the same lazy search
      ['@xprotocol/semantic/search', true], // the control: the search entry itself
    ] as const) {
      writeFileSync(trace, '');
      const r = spawnSync(
        process.execPath,
        [
          '--import',
          `data:text/javascript,${encodeURIComponent(register)}`,
          '--input-type=module',
          '-e',
          `await import('${entry}')`,
        ],
        { cwd: PROJECT, encoding: 'utf8', env: { ..._cleanEnv(), XP_TRACE: trace }, timeout: 60_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      const loaded = readFileSync(trace, 'utf8').split('\n');
      expect(
        loaded.some(
          (u) => u.includes('@xprotocol/translate/dist/') || u.includes(`${entry.split('/')[1]}/dist/`),
        ),
      ).toBe(true);
      expect(
        loaded.some((u) => /@xprotocol\/semantic\/dist\/search\.js$/.test(u)),
        `${entry} loads @xprotocol/semantic/search`,
      ).toBe(expectSearch);
    }
  });

  it('reports import time and memory of each package entry (fresh Node each)', () => {
    const out = run(
      process.execPath,
      [
        join(REPO_ROOT, 'scripts', 'import-cost.mjs'),
        '--json',
        '--from',
        PROJECT,
        ...PUBLISHED.map((p) => p.manifest.name),
      ],
      REPO_ROOT,
      300_000,
    );
    const results = JSON.parse(out.stdout) as { specifier: string; ms: number; heapBytes: number }[];
    expect(results).toHaveLength(PUBLISHED.length);
    for (const r of results) {
      expect(r.ms, r.specifier).toBeGreaterThan(0);
      Object.assign(summary.get(r.specifier)!, { importMs: r.ms, heapBytes: r.heapBytes });
    }
  }, 300_000);
});

describe('installed globally with npm from the tarballs (npm i -g --prefix)', () => {
  // A global install gives each package its own node_modules: the devserver and the adapter each
  // hold a copy of commander, so nothing may rely on `instanceof` across packages.
  const prefix = join(WORK, 'global');
  const binDir = join(prefix, 'bin');
  const bins = PUBLISHED.flatMap((p) =>
    Object.keys(p.manifest.bin ?? {}).map((bin) => [bin, String(p.manifest.version)] as const),
  );

  // --offline: the project install above has put every third-party package in npm's cache. A
  // global install has no overrides, so npm also asks the registry for the @xprotocol/* packages
  // the tarballs depend on (it then takes the tarballs installed beside them); online, this install
  // ran past eight minutes on one CI machine. Offline, npm makes no request at all.
  beforeAll(() => {
    run(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--offline',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...PUBLISHED.map(tarballOf),
      ],
      WORK,
      300_000,
    );
  }, 360_000);

  it('installs the four bins', () => {
    expect(bins.map(([bin]) => bin).sort()).toEqual([
      'xprotocol-adapter',
      'xprotocol-conformance',
      'xprotocol-devserver',
      'xprotocol-relay',
    ]);
  });

  describe.each(bins)('%s', (bin, version) => {
    // The bins' `#!/usr/bin/env node` finds this Node first.
    const env = { ..._cleanEnv(), PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
    const cli = (args: string[]) => exec(join(binDir, bin), args, WORK, env);

    it('--help exits 0 and prints its usage once on stdout, nothing on stderr', () => {
      const { status, stdout, stderr } = cli(['--help']);
      expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
      expect(stdout.match(/^usage:/gim), stdout).toHaveLength(1);
    });

    it(`--version exits 0 and prints the package version (${version}) on stdout`, () => {
      const { status, stdout, stderr } = cli(['--version']);
      expect({ status, stdout: stdout.trim(), stderr }).toEqual({ status: 0, stdout: version, stderr: '' });
    });

    it('an unknown flag exits 2 with one error on stderr and nothing on stdout', () => {
      const { status, stdout, stderr } = cli(['--no-such-flag']);
      expect({ status, stdout }, stderr).toEqual({ status: 2, stdout: '' });
      expect(
        stderr.split('\n').filter((line) => line.includes('--no-such-flag')),
        stderr,
      ).toHaveLength(1);
    });
  });

  // The lines README.md, docs/ and the package READMEs show a user of the published packages, run
  // against this install from a folder outside the clone (_installed-docs.ts says how, and what is
  // rewritten to share the machine); each is run or excluded with its reason in
  // _installed-doc-plans.ts (installed-doc-plans.test.ts checks that mapping without installing).
  describe('the documented command lines, run against the global install', () => {
    const runs = installedRuns();
    const docs = new InstalledDocs(prefix, WORK, PUBLISHED.map(tarballOf));
    beforeAll(() => docs.prepare(_cleanEnv()), 300_000);
    afterAll(() => docs.close(), 60_000);

    for (const documented of runs) {
      const plan = PLANS[documented.raw];
      if (plan === undefined || plan.run === 'excluded') continue;
      it(`${documented.files.join(', ')}: ${documented.raw}`, () => docs.run(documented, plan), 400_000);
    }
  });
});
