#!/usr/bin/env node
/**
 * Builds an MCP Bundle (.mcpb) of the adapter (docs/deploy.md, "MCP Bundle"): the built package
 * and its production dependencies (copied as npm would install them, the native SQLite binding of
 * this platform included) under `server/`, the configuration as `adapter.yml`, and
 * `bundle/manifest.json` with this package's version and platform; packed by the bundle format's
 * own tool, `mcpb pack`, which validates the manifest first. The configuration must serve its MCP
 * face on stdio, the transport a desktop client starts a bundle with.
 *
 *   node scripts/build-bundle.mjs --config adapter.yml [--output xprotocol-adapter.mcpb]
 * @module
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    config: { type: 'string' },
    output: { type: 'string', default: 'xprotocol-adapter.mcpb' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help || !values.config) {
  process.stderr.write(
    'usage: node scripts/build-bundle.mjs --config adapter.yml [--output xprotocol-adapter.mcpb]\n',
  );
  process.exit(values.help ? 0 : 2);
}
const configText = readFileSync(values.config, 'utf8');
const transport = parse(configText)?.mcp_server?.transport;
if (transport !== 'stdio') {
  process.stderr.write(
    `build-bundle: ${values.config}: mcp_server.transport: expected "stdio" (a desktop client starts a bundle and speaks to it over stdio), got ${JSON.stringify(transport)}\n`,
  );
  process.exit(2);
}
if (!existsSync(join(root, 'dist', 'bin.js'))) {
  process.stderr.write(
    `build-bundle: ${join(root, 'dist', 'bin.js')} does not exist: build the package first (pnpm build)\n`,
  );
  process.exit(1);
}

const stage = mkdtempSync(join(tmpdir(), 'xp-mcpb-'));
try {
  const server = join(stage, 'server');
  _copyPublished(root, server);
  const placed = new Map();
  _copyDependencies(root, server, join(server, 'node_modules'), placed);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const manifest = JSON.parse(readFileSync(join(root, 'bundle', 'manifest.json'), 'utf8'));
  manifest.version = pkg.version;
  // The SQLite binding is native: the bundle runs on the platform it was built on.
  manifest.compatibility.platforms = [process.platform];
  writeFileSync(join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(stage, 'adapter.yml'), configText);
  const mcpb = join(_find(root, '@anthropic-ai/mcpb'), 'dist', 'cli', 'cli.js');
  execFileSync(process.execPath, [mcpb, 'pack', stage, resolve(values.output)], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  process.stderr.write(`build-bundle: ${resolve(values.output)} (${placed.size} packages)\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}

/** What npm would publish of a workspace package: package.json, its `files`, README and LICENSE, no source maps. */
function _copyPublished(from, to) {
  const pkg = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
  mkdirSync(to, { recursive: true });
  const entries = [
    'package.json',
    'README.md',
    'LICENSE',
    ...(pkg.files ?? []).filter((f) => !f.startsWith('!')),
  ];
  for (const entry of entries) {
    if (!existsSync(join(from, entry))) continue;
    cpSync(join(from, entry), join(to, entry), {
      recursive: true,
      dereference: true,
      filter: (source) => !source.endsWith('.map'),
    });
  }
}

/** The folder `name` resolves to from the package at `from`, as Node looks it up; undefined when absent. */
function _find(from, name) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Copies the production dependencies of the package at `from` (copied to `to`) into `modules`:
 * each at the top when its name is free there, else under its dependent, so every package finds
 * the version it was installed with. `placed` maps a top-level name to its source folder.
 */
function _copyDependencies(from, to, modules, placed) {
  const pkg = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
  const optional = { ...pkg.optionalDependencies, ...pkg.peerDependencies };
  for (const name of Object.keys({ ...pkg.dependencies, ...optional })) {
    const source = _find(from, name);
    if (source === undefined) {
      if (name in optional) continue; // an optional binding of another platform, or an absent peer
      throw new Error(`${pkg.name} depends on ${name}, which is not installed: run pnpm install`);
    }
    let dest;
    if (!placed.has(name)) {
      placed.set(name, source);
      dest = join(modules, name);
    } else if (placed.get(name) === source) {
      continue;
    } else {
      dest = join(to, 'node_modules', name);
      if (existsSync(dest)) continue;
    }
    // A workspace package is copied as it would be published; one from the store is published already.
    if (source.includes(`${'/node_modules/'}.pnpm/`))
      cpSync(source, dest, { recursive: true, dereference: true });
    else _copyPublished(source, dest);
    _copyDependencies(source, dest, modules, placed);
  }
}
