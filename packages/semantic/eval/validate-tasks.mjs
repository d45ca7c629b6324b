#!/usr/bin/env node
// Validates the MCP tool-retrieval task files (mcp-tasks-tune.json, mcp-tasks-check.json) against the
// tool lists in testdata/mcp-servers and prints counts per kind, per server and per half.
// Reads only testdata/mcp-servers/*.json and the task files. Exit code 1 on any error.
// Usage: node packages/semantic/eval/validate-tasks.mjs [task file ...]
// (default: the tune and check halves; pass e.g. mcp-tasks-check2.json or mcp-tasks-check3.json to validate a later
// check set, alone or with them)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const serversDir = path.resolve(here, '../../../testdata/mcp-servers');
const taskFiles =
  process.argv.length > 2
    ? process.argv.slice(2).map((f) => path.relative(here, path.resolve(f)))
    : ['mcp-tasks-tune.json', 'mcp-tasks-check.json'];
const MAX_SHARE = 0.15;

const toolIds = new Set();
const servers = [];
for (const f of fs
  .readdirSync(serversDir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const slug = f.slice(0, -'.json'.length);
  servers.push(slug);
  const j = JSON.parse(fs.readFileSync(path.join(serversDir, f), 'utf8'));
  for (const t of j.tools ?? []) toolIds.add(`${slug}/${t.name}`);
}

const errors = [];
const warnings = [];
const seenIds = new Map();
const seenTexts = new Map();
const all = [];
const perHalf = {};
for (const tf of taskFiles) {
  const j = JSON.parse(fs.readFileSync(path.resolve(here, tf), 'utf8'));
  if (typeof j.description !== 'string') errors.push(`${tf}: missing description`);
  if (!Array.isArray(j.tasks)) {
    errors.push(`${tf}: tasks is not an array`);
    continue;
  }
  perHalf[tf] = { tasks: 0, single: 0, multi: 0 };
  for (const t of j.tasks) {
    const where = `${tf} ${t.id}`;
    // t001… for the tune/check halves, c2-001… for check set 2, c3-001… for check set 3
    if (!/^(t|c2-|c3-)\d{3,}$/.test(t.id ?? '')) errors.push(`${where}: bad id`);
    if (seenIds.has(t.id)) errors.push(`${where}: duplicate id (also in ${seenIds.get(t.id)})`);
    seenIds.set(t.id, tf);
    if (typeof t.text !== 'string' || !t.text.trim()) errors.push(`${where}: empty text`);
    const norm = (t.text ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
    if (seenTexts.has(norm)) errors.push(`${where}: duplicate text (also ${seenTexts.get(norm)})`);
    seenTexts.set(norm, t.id);
    if (t.kind !== 'single' && t.kind !== 'multi') errors.push(`${where}: kind must be single|multi`);
    if (!Array.isArray(t.gold) || t.gold.length === 0) {
      errors.push(`${where}: no gold`);
      continue;
    }
    const g = new Set();
    for (const e of t.gold) {
      if (!toolIds.has(e.id)) errors.push(`${where}: unknown tool id ${e.id}`);
      if (e.grade !== 1 && e.grade !== 2) errors.push(`${where}: grade must be 1 or 2 (${e.id})`);
      if (g.has(e.id)) errors.push(`${where}: gold id listed twice ${e.id}`);
      g.add(e.id);
    }
    const g2 = t.gold.filter((e) => e.grade === 2);
    if (g2.length === 0) warnings.push(`${where}: no grade-2 tool (ambiguous, alternatives only)`);
    // a multi-step task needs two different grade-2 tools; the same tool in both azure modes counts once
    const distinct = new Set(g2.map((e) => e.id.replace(/^azure__mcp--mode-all\//, 'azure__mcp/')));
    if (t.kind === 'multi' && distinct.size < 2) warnings.push(`${where}: multi task with < 2 grade-2 tools`);
    perHalf[tf].tasks++;
    perHalf[tf][t.kind]++;
    all.push({ ...t, half: tf.includes('tune') ? 'tune' : 'check' });
  }
}

const n = all.length;
const pct = (x) => `${((100 * x) / n).toFixed(1)}%`;
const serverOf = (id) => id.split('/')[0];
const anyGold = Object.fromEntries(servers.map((s) => [s, 0]));
const grade2 = Object.fromEntries(servers.map((s) => [s, 0]));
const primary = Object.fromEntries(servers.map((s) => [s, 0]));
const goldTools = new Set();
for (const t of all) {
  for (const s of new Set(t.gold.map((e) => serverOf(e.id)))) anyGold[s]++;
  for (const s of new Set(t.gold.filter((e) => e.grade === 2).map((e) => serverOf(e.id)))) grade2[s]++;
  primary[serverOf(t.gold[0].id)]++;
  for (const e of t.gold) goldTools.add(e.id);
}
const kindCount = (k) => all.filter((t) => t.kind === k).length;
console.log(`tool ids in testdata: ${toolIds.size} across ${servers.length} server files`);
console.log(`tasks: ${n}  single: ${kindCount('single')}  multi: ${kindCount('multi')}`);
for (const [tf, c] of Object.entries(perHalf)) {
  console.log(`  ${tf}: ${c.tasks} tasks (single ${c.single}, multi ${c.multi})`);
}
console.log(`distinct tools used as gold: ${goldTools.size}`);
console.log('\nper server: tasks naming it in gold (any grade, share) / with a grade-2 tool / as primary');
for (const s of [...servers].sort((a, b) => anyGold[b] - anyGold[a])) {
  const cols = [String(anyGold[s]).padStart(4), pct(anyGold[s]).padStart(6), String(grade2[s]).padStart(4)];
  console.log(`  ${s.padEnd(48)} ${cols.join(' ')}  ${String(primary[s]).padStart(4)}`);
}

// split balance: primary server (first gold entry; the two azure files counted as one) per half
const halfKey = (t) => {
  const s = serverOf(t.gold[0].id);
  return s.startsWith('azure__mcp') ? 'azure__mcp (both modes)' : s;
};
const bal = {};
for (const t of all) {
  const k = halfKey(t);
  bal[k] ??= { tune: 0, check: 0 };
  bal[k][t.half]++;
}
console.log('\nsplit by primary server (tune/check):');
const balRows = Object.entries(bal).sort((a, b) => b[1].tune + b[1].check - a[1].tune - a[1].check);
const short = (k) => k.replace(/^modelcontextprotocol__server-/, 'mcp/');
console.log(`  ${balRows.map(([k, v]) => `${short(k)} ${v.tune}/${v.check}`).join(', ')}`);

const covered = servers.filter((s) => grade2[s] > 0).length;
const maxS = servers.reduce((a, b) => (grade2[a] >= grade2[b] ? a : b));
const maxA = servers.reduce((a, b) => (anyGold[a] >= anyGold[b] ? a : b));
console.log(`\nservers with a grade-2 tool: ${covered}/${servers.length}`);
console.log(`max share (grade-2): ${maxS} ${grade2[maxS]} = ${pct(grade2[maxS])}`);
console.log(`max share (any grade): ${maxA} ${anyGold[maxA]} = ${pct(anyGold[maxA])}`);
if (anyGold[maxA] / n > MAX_SHARE) errors.push(`server ${maxA} in over ${MAX_SHARE * 100}% of tasks`);
console.log(`\nwarnings: ${warnings.length}`);
for (const w of warnings) console.log(`  ${w}`);
console.log(`errors: ${errors.length}`);
for (const e of errors) console.log(`  ${e}`);
process.exit(errors.length ? 1 : 0);
