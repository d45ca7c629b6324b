// The documentation as a user reads it, run against the built bins (real processes, a temporary
// HOME): every command line in a ```sh block of the READMEs and docs/ names a bin that ships and
// only flags that bin accepts; the `--help`, `keygen` and `validate` lines run as written, and so do
// the lines that run a CLI from a clone through pnpm (`pnpm adapter --help`: the root package.json's
// scripts); docs/cli.md names every bin the manifests ship; every `import` in a TypeScript example
// resolves and the names it imports exist.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BINS, blocks, DOCS, documentedCommands, words } from './_doc-commands.js';
import { REPO_ROOT as ROOT } from './_workspace.js';

const home = mkdtempSync(join(tmpdir(), 'xp-docs-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function run(bin: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [BINS.get(bin)!, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const documented = documentedCommands();

/**
 * A folder holding `pnpm` when the one running these tests is not on PATH (pnpm sets
 * npm_execpath for the scripts it runs), else undefined.
 */
function _pnpmFolder(): string | undefined {
  if (spawnSync('pnpm', ['--version'], { encoding: 'utf8' }).status === 0) return undefined;
  const execPath = process.env.npm_execpath;
  if (!execPath || !/pnpm/.test(execPath)) return undefined;
  const folder = join(home, '.pnpm-on-path');
  mkdirSync(folder, { recursive: true });
  const script = join(folder, 'pnpm');
  writeFileSync(
    script,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(execPath)} "$@"\n`,
  );
  chmodSync(script, 0o755);
  return folder;
}

describe('documented command lines', () => {
  it('the documents show command lines of every shipped bin', () => {
    const named = new Set(documented.map(({ line }) => line.split(' ')[0]));
    for (const bin of BINS.keys()) expect(named, `no documented ${bin} command`).toContain(bin);
  });

  for (const { file, line } of documented) {
    it(`${file}: ${line}`, () => {
      const [bin, ...rest] = words(line);
      expect([...BINS.keys()], `${file} names a bin that does not ship`).toContain(bin);
      // The subcommand (adapter) is the first word that is not a flag; the others have none.
      const sub = bin === 'xprotocol-adapter' && rest[0] && !rest[0].startsWith('-') ? [rest[0]] : [];
      const help = run(bin!, [...sub, '--help']);
      expect(help.code, help.stderr).toBe(0);
      // After a bare `--` the words are a command the bin runs (`gateway -- npx -y …`): not its flags.
      const end = rest.indexOf('--');
      const own = end === -1 ? rest : rest.slice(0, end);
      for (const flag of own.filter((w) => /^--?[a-zA-Z]/.test(w)).map((w) => w.split('=')[0]!)) {
        // `[--force]` and `[--json | --gbnf]` are written with brackets.
        const bare = flag.replace(/[[\]]/g, '');
        expect(help.stdout, `${bin} ${sub.join(' ')} does not accept ${bare}`).toMatch(
          new RegExp(`(^|[\\s,])${bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([\\s,=<]|$)`, 'm'),
        );
      }
    });
  }
});

describe('command lines that run as written', () => {
  it('keygen writes the documented key file; validate accepts the documented configuration', () => {
    const keygens = documented.filter(({ line }) => /^xprotocol-adapter keygen /.test(line));
    expect(keygens.length).toBeGreaterThan(0);
    for (const { line } of keygens) {
      const args = words(line)
        .slice(1)
        .filter((w) => !/^\[.*\]$/.test(w))
        .map((w) => w.replace(/^~\//, `${home}/`));
      const { code, stdout, stderr } = run('xprotocol-adapter', args);
      expect(code, `${line}\n${stderr}`).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ ed25519: expect.stringMatching(/^ed25519:/) });
      rmSync(args[args.indexOf('--output') + 1]!, { force: true });
    }
    // README's validate line names xprotocol-mcp-adapter.yml: give it docs/config.md's adapter B.
    const config = blocks('docs/config.md', ['yaml']).find((b) => b.includes('Adapter B'))!;
    writeFileSync(join(home, 'xprotocol-mcp-adapter.yml'), config);
    const env = { CLIENT_KEY: `ed25519:${'1'.repeat(64)}` };
    for (const { line } of documented.filter(({ line }) =>
      /^xprotocol-adapter validate --config xprotocol-mcp-adapter\.yml/.test(line),
    )) {
      const { code, stderr } = run('xprotocol-adapter', words(line).slice(1), env);
      expect(code, `${line}\n${stderr}`).toBe(0);
    }
  });

  it('every bin answers --help with exit 0, and --version when its help offers it', () => {
    for (const bin of BINS.keys()) {
      const help = run(bin, ['--help']);
      expect(help.code, bin).toBe(0);
      if (!help.stdout.includes('--version')) continue;
      const version = run(bin, ['--version']);
      expect(version.code, `${bin} --version: ${version.stderr}`).toBe(0);
      expect(version.stdout).toMatch(/\d+\.\d+\.\d+/);
    }
    // A bound on hanging only: each bin starts Node twice, and the lanes of npm test share the cores.
  }, 240_000);
});

describe('from a clone: the pnpm lines run as written, from the repository root', () => {
  // README.md, "Installing": after `pnpm install && pnpm build`, a CLI runs in place. pnpm links no
  // package's own bin into its own node_modules/.bin, so these go through the root's scripts.
  const fromClone = documented.filter(({ raw }) => /^pnpm\s/.test(raw));

  it('README.md runs the adapter and the devserver from a clone', () => {
    const named = fromClone.filter(({ file }) => file === 'README.md').map(({ line }) => line.split(' ')[0]);
    expect(named).toContain('xprotocol-adapter');
    expect(named).toContain('xprotocol-devserver');
  });

  for (const { file, raw } of fromClone) {
    it(`${file}: ${raw}`, () => {
      const pnpmFolder = _pnpmFolder();
      const result = spawnSync('sh', ['-c', raw], {
        cwd: ROOT,
        env: {
          PATH: [pnpmFolder, process.env.PATH ?? ''].filter(Boolean).join(delimiter),
          HOME: home,
          NO_COLOR: '1',
          npm_config_update_notifier: 'false',
        },
        encoding: 'utf8',
        timeout: 180_000,
      });
      expect(
        result.status,
        `${raw} (in the repository root): exit ${result.status}\n${result.stdout}\n${result.stderr}`,
      ).toBe(0);
    }, 200_000);
  }
});

describe('docs/cli.md', () => {
  it('names every shipped executable, with a section each', () => {
    const text = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    for (const bin of BINS.keys()) expect(text).toMatch(new RegExp(`^## ${bin}$`, 'm'));
    const count = ['Two', 'Three', 'Four', 'Five'][BINS.size - 2];
    expect(text).toContain(`${count} executables ship`);
  });
});

describe('TypeScript examples', () => {
  const imports: { file: string; spec: string; names: string[] }[] = [];
  for (const file of DOCS) {
    for (const block of blocks(file, ['ts', 'typescript'])) {
      for (const m of block.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/gm)) {
        const names = m[1]!
          .split(',')
          .map(
            (n) =>
              n
                .trim()
                .replace(/^type\s+/, '')
                .split(/\s+as\s+/)[0]!,
          )
          .filter((n) => n && !/^type\s/.test(n));
        imports.push({ file, spec: m[2]!, names });
      }
    }
  }

  it('the documents have TypeScript examples with imports', () => {
    expect(imports.length).toBeGreaterThan(5);
  });

  for (const { file, spec, names } of imports) {
    it(`${file}: import { ${names.join(', ')} } from '${spec}'`, () => {
      // Resolved from the documented package's folder (README) or the adapter app (docs/), as a
      // user's code would; a third-party module from a workspace package that installed it (the
      // user installs it too), at the version this repository pins.
      const own =
        file.includes('/') && !file.startsWith('docs/')
          ? join(ROOT, dirname(file))
          : join(ROOT, 'apps/adapter');
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      const from =
        name.startsWith('@xprotocol/') || existsSync(join(own, 'node_modules', name))
          ? own
          : ([...BINS.values(), ...DOCS.map((d) => join(ROOT, d))]
              .map((f) => _packageDir(f))
              .concat(
                ['packages/crypto', 'packages/translate', 'packages/mcp-bridge'].map((d) => join(ROOT, d)),
              )
              .find((dir) => existsSync(join(dir, 'node_modules', name))) ?? own);
      const probe = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(spec)}); process.stdout.write(JSON.stringify(Object.keys(m)));`,
        ],
        { cwd: from, encoding: 'utf8', timeout: 60_000 },
      );
      expect(
        probe.status,
        `${spec} from ${relative(ROOT, from)}: ${probe.stderr.split('\n').find((l) => l.includes('Error')) ?? probe.stderr}`,
      ).toBe(0);
      const exported = JSON.parse(probe.stdout) as string[];
      // Type-only names have no runtime value; they start with an upper-case letter and are checked by tsc elsewhere.
      for (const name of names.filter((n) => !exported.includes(n))) {
        expect(/^[A-Z]/.test(name) && !/^[A-Z0-9_]+$/.test(name), `${spec} has no export ${name}`).toBe(true);
      }
    });
  }
});

/** The package folder that holds `file` (the nearest folder with a package.json). */
function _packageDir(file: string): string {
  let dir = dirname(file);
  while (dir !== ROOT && !existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}
