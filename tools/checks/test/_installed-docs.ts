/**
 * Runs the documented command lines (_doc-commands.ts) as a user of the published packages types
 * them, against a global install (`npm i -g --prefix`): through `sh`, in a working folder outside
 * the clone, with the prefix's bin first on PATH, the clone's folders off PATH, a temporary HOME,
 * and npm offline with the prefix as its global folder, so `npx @xprotocol/<package>` finds the
 * installed package and can fetch nothing. Owns the fixtures a line needs (keys, configurations,
 * a relay, a started adapter) and the few rewrites that let it share the machine, listed at
 * `asRun`. How each line is run is _installed-doc-plans.ts's.
 * @module
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { freePort } from '@xprotocol/test-ports';
import { blocks, type DocumentedCommand, documentedCommands, words } from './_doc-commands.js';
import type { Fixture, Plan } from './_installed-doc-plans.js';
import { type ManifestRegistry, startManifestRegistry } from './_manifest-registry.js';
import { REPO_ROOT } from './_workspace.js';

/** A documented line as it is run: once, whatever the number of documents that show it. */
export interface InstalledRun {
  raw: string;
  files: string[];
}

/** The lines a user of the published packages types (the `pnpm …` ones run from a clone). */
export function installedRuns(): InstalledRun[] {
  const byRaw = new Map<string, InstalledRun>();
  for (const { file, raw } of documentedCommands().filter((c: DocumentedCommand) => !/^pnpm\s/.test(c.raw))) {
    const run = byRaw.get(raw) ?? { raw, files: [] };
    if (!run.files.includes(file)) run.files.push(file);
    byRaw.set(raw, run);
  }
  return [...byRaw.values()];
}

/** What a run printed and how it ended. */
interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A server started by a run or a fixture: stopped by Ctrl-C (SIGINT to its process group). */
interface Started {
  child: ChildProcess;
  out: { stdout: string; stderr: string };
  exit: Promise<Outcome>;
}

const SERVE_BOUND_MS = 120_000;
const RUN_BOUND_MS = 240_000;
const STOP_BOUND_MS = 30_000;

/** The working folder, HOME and fixtures of the documented lines against one global install. */
export class InstalledDocs {
  readonly #prefix: string;
  readonly #root: string;
  readonly #home: string;
  readonly #tmp: string;
  readonly #tarballs: readonly string[];
  #registry: ManifestRegistry | undefined;
  readonly #publicKeys = new Map<string, string>();
  #relayUrl: string | undefined;
  #adapterKey: string | undefined;
  readonly #servers: Started[] = [];

  /**
   * `prefix`: the global install's prefix; `work`: a folder outside the clone; `tarballs`: what
   * was installed (npx learns their manifests from a loopback registry, _manifest-registry.ts).
   */
  constructor(prefix: string, work: string, tarballs: readonly string[]) {
    this.#prefix = prefix;
    this.#root = join(work, 'user');
    this.#home = join(this.#root, 'home');
    this.#tmp = join(this.#root, 'tmp');
    this.#tarballs = tarballs;
  }

  /**
   * The user's folder: HOME, a scratch folder for the docs' `/tmp`, and the MCP server the docs
   * run with `npx [-y] @modelcontextprotocol/server-filesystem`, installed from npm's cache (the
   * devserver depends on it, so the install put it there) where npx looks first; and the
   * manifest registry. `installEnv`: the environment the global install ran in (its npm cache).
   */
  async prepare(installEnv: NodeJS.ProcessEnv): Promise<void> {
    for (const dir of [this.#home, this.#tmp]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(this.#root, 'package.json'), '{ "private": true }\n');
    const filesystem = `@modelcontextprotocol/server-filesystem@${_devserverDependency('@modelcontextprotocol/server-filesystem')}`;
    const r = spawnSync(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', filesystem],
      {
        cwd: this.#root,
        env: installEnv,
        encoding: 'utf8',
        timeout: 180_000,
      },
    );
    if (r.status !== 0) throw new Error(`npm install ${filesystem} --offline failed: ${r.stderr}`);
    this.#registry = await startManifestRegistry(this.#tarballs);
  }

  /** Stops every server still running (the relay of a failed run, an adapter) and the registry. */
  async stopAll(): Promise<void> {
    for (const server of this.#servers.splice(0)) await _stop(server);
  }

  /** Stops everything, the manifest registry last. */
  async close(): Promise<void> {
    await this.stopAll();
    await this.#registry?.close();
  }

  /** Runs one documented line per its plan; throws with its output when it does not hold. */
  async run(run: InstalledRun, plan: Exclude<Plan, { run: 'excluded' }>): Promise<void> {
    const cwd = join(this.#root, run.files[0]!.replace(/[^a-zA-Z0-9]+/g, '-'));
    mkdirSync(cwd, { recursive: true });
    try {
      for (const fixture of plan.needs ?? []) await this.#fixture(fixture, cwd);
      await this.#keys(run.raw, cwd);
      await this.#configs(cwd);
      const line = this.asRun(run.raw);
      if (plan.run === 'exit') {
        const outcome = await this.#runToEnd(line, cwd);
        _check(line, outcome, outcome.code === 0 && (plan.stdout?.test(outcome.stdout) ?? true), plan.stdout);
        this.#learnKey(run.raw, cwd, outcome.stdout);
        return;
      }
      const server = this.#start(line, cwd);
      const ready = await _ready(server, plan.ready);
      const outcome = await _stop(server);
      // npx ends by the signal on Ctrl-C, whatever its bin did: the bin's own last line says that.
      const exit = outcome.code === 0 || (line.startsWith('npx ') && outcome.signal === 'SIGINT');
      const stopped =
        plan.stopped === undefined || plan.stopped.test(outcome.stderr) || plan.stopped.test(outcome.stdout);
      _check(line, outcome, ready && exit && stopped, plan.ready);
    } finally {
      await this.stopAll();
    }
  }

  /**
   * The line as it is run. Rewrites, all to share the machine with other runs: optional
   * `[…]` groups are left out; the fixed relay port 8765 becomes the fixture relay's URL in a
   * client's `ws://127.0.0.1:8765` and a free port (`0`) in a server's `--port 8765`; a devserver
   * that would take port 8765 by default gets `--relay-port 0`; `/tmp` is a scratch folder.
   */
  asRun(raw: string): string {
    let line = raw;
    for (let previous = ''; previous !== line; ) {
      previous = line;
      line = line.replace(/\s*\[[^[\]]*\](?:\.\.\.|…)?/g, '');
    }
    line = this.#local(line).replace(/--port 8765\b/g, '--port 0');
    if (
      /^(npx @xprotocol\/devserver|xprotocol-devserver)\b/.test(line) &&
      !/--demo|--mcp-proxy|--relay-port/.test(line)
    ) {
      line = line.replace(/^(npx @xprotocol\/devserver|xprotocol-devserver)/, '$1 --relay-port 0');
    }
    return line;
  }

  /** A line or a configuration with the fixture relay's URL for `ws://127.0.0.1:8765` and the scratch folder for `/tmp`. */
  #local(text: string): string {
    return text
      .replace(/ws:\/\/127\.0\.0\.1:8765/g, this.#relayUrl ?? 'ws://127.0.0.1:8765')
      .replace(/(?<=[\s"':])\/tmp(?=[/\s"']|$)/gm, this.#tmp);
  }

  /** The environment of every run: see the module comment. */
  #env(): NodeJS.ProcessEnv {
    const path = [join(this.#prefix, 'bin'), dirname(process.execPath)]
      .concat((process.env.PATH ?? '').split(delimiter).filter((p) => p && !p.startsWith(REPO_ROOT)))
      .join(delimiter);
    return {
      PATH: path,
      HOME: this.#home,
      NO_COLOR: '1',
      FS_ROOT: this.#tmp,
      npm_config_prefix: this.#prefix,
      npm_config_registry: this.#registry?.url,
      npm_config_cache: join(this.#root, 'npm-cache'),
      npm_config_update_notifier: 'false',
      ...(this.#publicKeys.has(this.#keyPath('client.key')) && {
        CLIENT_KEY: this.#publicKeys.get(this.#keyPath('client.key')),
      }),
      ...(this.#adapterKey !== undefined && { FS_ADAPTER_KEY: this.#adapterKey }),
    };
  }

  #keyPath(name: string): string {
    return join(this.#home, '.xprotocol', name);
  }

  /** The keys the docs' lines read, made with the installed keygen; a keygen line's own output removed first. */
  async #keys(raw: string, cwd: string): Promise<void> {
    for (const name of ['client.key', 'adapter.key', 'adapter-2027.key', 'org-root.key', 'department.key']) {
      if (!existsSync(this.#keyPath(name))) await this.#keygen(this.#keyPath(name), cwd);
    }
    if (/ keygen /.test(raw)) rmSync(this.#outputOf(raw, cwd), { force: true });
  }

  async #keygen(path: string, cwd: string): Promise<void> {
    const outcome = await this.#runToEnd(`xprotocol-adapter keygen --output '${path}'`, cwd);
    if (outcome.code !== 0) throw new Error(`keygen ${path}: ${outcome.stderr}`);
    this.#publicKeys.set(path, (JSON.parse(outcome.stdout) as { ed25519: string }).ed25519);
  }

  /** The `--output` of a documented line, as a path. */
  #outputOf(raw: string, cwd: string): string {
    const w = words(raw);
    const output = w[w.indexOf('--output') + 1]!.replace(/^~\//, `${this.#home}/`);
    return isAbsolute(output) ? output : join(cwd, output);
  }

  /** Remembers the public key a documented keygen line printed (CLIENT_KEY follows client.key). */
  #learnKey(raw: string, cwd: string, stdout: string): void {
    if (!/ keygen /.test(raw)) return;
    this.#publicKeys.set(this.#outputOf(raw, cwd), (JSON.parse(stdout) as { ed25519: string }).ed25519);
  }

  /**
   * The configurations the docs' lines name: docs/config.md's adapter B as
   * `xprotocol-mcp-adapter.yml`, apps/adapter/README.md's `adapter.yml`; their relay is the
   * fixture relay and their well-known port a free one.
   */
  async #configs(cwd: string): Promise<void> {
    const adapterB = blocks('docs/config.md', ['yaml']).find((b) => b.includes('Adapter B'))!;
    const adapterReadme = blocks('apps/adapter/README.md', ['yaml']).find((b) =>
      b.startsWith('# adapter.yml'),
    )!;
    const port = await freePort();
    const local = (yaml: string) =>
      this.#local(yaml).replace(/well_known_port: 8766/, `well_known_port: ${port}`);
    writeFileSync(join(cwd, 'xprotocol-mcp-adapter.yml'), local(adapterB));
    if (!existsSync(join(cwd, 'adapter.yml'))) writeFileSync(join(cwd, 'adapter.yml'), local(adapterReadme));
  }

  async #fixture(fixture: Fixture, cwd: string): Promise<void> {
    if (fixture === 'relay') {
      const relay = this.#start('exec xprotocol-relay --port 0', cwd);
      if (!(await _ready(relay, /^ws:\/\/127\.0\.0\.1:\d+$/m))) throw new Error(`relay: ${relay.out.stderr}`);
      this.#relayUrl = /^ws:\/\/127\.0\.0\.1:\d+$/m.exec(relay.out.stdout)![0];
    } else if (fixture === 'adapter-b') {
      // A fresh client key: its public half is CLIENT_KEY, which adapter B grants.
      rmSync(this.#keyPath('client.key'), { force: true });
      await this.#keygen(this.#keyPath('client.key'), cwd);
      await this.#configs(cwd);
      writeFileSync(join(this.#tmp, 'hello.txt'), 'Hello\n'); // README: echo 'Hello' > /tmp/hello.txt
      const adapter = this.#start('exec xprotocol-adapter start --config xprotocol-mcp-adapter.yml', cwd);
      if (!(await _ready(adapter, /adapter ready/))) throw new Error(`adapter B: ${adapter.out.stderr}`);
      const readyLine = adapter.out.stderr.split('\n').find((l) => l.includes('adapter ready')) ?? '';
      this.#adapterKey = /ed25519:[0-9a-f]{64}/.exec(readyLine)?.[0];
    } else {
      const out = await this.#runToEnd(
        "xprotocol-adapter register --key ~/.xprotocol/client.key --parent-key ~/.xprotocol/org-root.key --capabilities 'com.test.fs.read' --output caller.chain.json",
        cwd,
      );
      if (out.code !== 0) throw new Error(`caller chain: ${out.stderr}`);
    }
  }

  /** Runs a line to its end (bounded: then its process group is killed), whatever its exit. */
  async #runToEnd(line: string, cwd: string): Promise<Outcome> {
    const started = this.#start(line, cwd);
    let bound: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      started.exit,
      new Promise<null>((resolve) => {
        bound = setTimeout(() => resolve(null), RUN_BOUND_MS);
      }),
    ]);
    clearTimeout(bound);
    this.#servers.splice(this.#servers.indexOf(started), 1);
    if (outcome === null) {
      const stopped = await _stop(started);
      return { ...stopped, stderr: `${stopped.stderr}\n(still running after ${RUN_BOUND_MS} ms)` };
    }
    _killGroup(started);
    return outcome;
  }

  #start(line: string, cwd: string): Started {
    const child = spawn('sh', ['-c', line.startsWith('exec ') ? line : `exec ${line}`], {
      cwd,
      env: this.#env(),
      detached: true, // its own process group: what it starts is stopped with it
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = { stdout: '', stderr: '' };
    child.stdout!.on('data', (d: Buffer) => (out.stdout += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (out.stderr += d.toString('utf8')));
    const exit = new Promise<Outcome>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal, ...out })),
    );
    const started = { child, out, exit };
    this.#servers.push(started);
    return started;
  }
}

/** The version the devserver's manifest pins for a dependency. */
function _devserverDependency(name: string): string {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'apps/devserver/package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return manifest.dependencies[name]!;
}

/** Resolves true once `ready` is in its stdout or stderr, false when it exits first or the bound passes. */
function _ready(server: Started, ready: RegExp): Promise<boolean> {
  return new Promise((resolve) => {
    const check = () => {
      if (ready.test(server.out.stdout) || ready.test(server.out.stderr)) finish(true);
    };
    const bound = setTimeout(() => finish(false), SERVE_BOUND_MS);
    const finish = (value: boolean) => {
      clearTimeout(bound);
      server.child.stdout!.off('data', check);
      server.child.stderr!.off('data', check);
      resolve(value);
    };
    server.child.stdout!.on('data', check);
    server.child.stderr!.on('data', check);
    void server.exit.then(() => finish(false));
    check();
  });
}

/**
 * Ctrl-C as a terminal sends it (SIGINT to the whole process group: npx and the bin it runs), then
 * its exit (bounded); what is left of its process group is killed.
 */
async function _stop(server: Started): Promise<Outcome> {
  const pid = server.child.pid!;
  if (server.child.exitCode === null && server.child.signalCode === null) process.kill(-pid, 'SIGINT');
  let bound: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    server.exit,
    new Promise<Outcome>((resolve) => {
      bound = setTimeout(
        () =>
          resolve({
            code: null,
            signal: null,
            stdout: server.out.stdout,
            stderr: `${server.out.stderr}\n(no exit ${STOP_BOUND_MS} ms after SIGINT)`,
          }),
        STOP_BOUND_MS,
      );
    }),
  ]);
  clearTimeout(bound);
  _killGroup(server);
  return outcome;
}

/** Kills what is left of a run's process group (what it started and left behind). */
function _killGroup(server: Started): void {
  try {
    process.kill(-server.child.pid!, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

function _check(line: string, outcome: Outcome, holds: boolean, expected: RegExp | undefined): void {
  if (holds) return;
  throw new Error(
    `${line}\nexit ${outcome.code}, signal ${outcome.signal}${expected ? `, expected ${expected} in its output` : ''}\n` +
      `stdout: ${outcome.stdout.slice(-3000)}\nstderr: ${outcome.stderr.slice(-3000)}`,
  );
}
