#!/usr/bin/env node
// Validates the MCP tool-retrieval task files against testdata/mcp-servers and prints counts.
// Reads only testdata/mcp-servers/*.json and the task files in this folder.
// Usage: node packages/semantic/eval/validate-tasks.mjs   (exit code 1 on any error)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const serversDir = path.resolve(here, "../../../testdata/mcp-servers");
const taskFiles = ["mcp-tasks-tune.json", "mcp-tasks-check.json"];

const toolIds = new Set();
const servers = [];
for (const f of fs.readdirSync(serversDir).filter((f) => f.endsWith(".json")).sort()) {
  const slug = f.slice(0, -".json".length);
  servers.push(slug);
  const j = JSON.parse(fs.readFileSync(path.join(serversDir, f), "utf8"));
  for (const t of j.tools ?? []) toolIds.add(`${slug}/${t.name}`);
}

const errors = [];
const warnings = [];
const seenIds = new Map();
const seenTexts = new Map();
const all = [];
const perHalf = {};
for (const tf of taskFiles) {
  const j = JSON.parse(fs.readFileSync(path.join(here, tf), "utf8"));
  if (typeof j.description !== "string") errors.push(`${tf}: missing description`);
  if (!Array.isArray(j.tasks)) { errors.push(`${tf}: tasks is not an array`); continue; }
  perHalf[tf] = { tasks: 0, single: 0, multi: 0 };
  for (const t of j.tasks) {
    const where = `${tf} ${t.id}`;
    if (!/^t\d{3,}$/.test(t.id ?? "")) errors.push(`${where}: bad id`);
    if (seenIds.has(t.id)) errors.push(`${where}: duplicate id (also in ${seenIds.get(t.id)})`);
    seenIds.set(t.id, tf);
    if (typeof t.text !== "string" || !t.text.trim()) errors.push(`${where}: empty text`);
    const norm = (t.text ?? "").toLowerCase().replace(/\s+/g, " ").trim();
    if (seenTexts.has(norm)) errors.push(`${where}: duplicate text (also ${seenTexts.get(norm)})`);
    seenTexts.set(norm, t.id);
    if (t.kind !== "single" && t.kind !== "multi") errors.push(`${where}: kind must be single|multi`);
    if (!Array.isArray(t.gold) || t.gold.length === 0) { errors.push(`${where}: no gold`); continue; }
    const g = new Set();
    for (const e of t.gold) {
      if (!toolIds.has(e.id)) errors.push(`${where}: unknown tool id ${e.id}`);
      if (e.grade !== 1 && e.grade !== 2) errors.push(`${where}: grade must be 1 or 2 (${e.id})`);
      if (g.has(e.id)) errors.push(`${where}: gold id listed twice ${e.id}`);
      g.add(e.id);
    }
    const g2 = t.gold.filter((e) => e.grade === 2);
    if (g2.length === 0) warnings.push(`${where}: no grade-2 tool (ambiguous task, only acceptable alternatives)`);
    // a multi-step task needs at least two different grade-2 tools, not counting the same tool in both azure modes
    const distinct = new Set(g2.map((e) => e.id.replace(/^azure__mcp--mode-all\//, "azure__mcp/")));
    if (t.kind === "multi" && distinct.size < 2) warnings.push(`${where}: multi task with fewer than two grade-2 tools`);
    perHalf[tf].tasks++; perHalf[tf][t.kind]++;
    all.push(t);
  }
}

const n = all.length;
const pct = (x) => ((100 * x) / n).toFixed(1) + "%";
const serverOf = (id) => id.split("/")[0];
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
console.log(`tool ids in testdata: ${toolIds.size} across ${servers.length} server files`);
console.log(`tasks: ${n}  single: ${all.filter((t) => t.kind === "single").length}  multi: ${all.filter((t) => t.kind === "multi").length}`);
for (const [tf, c] of Object.entries(perHalf)) console.log(`  ${tf}: ${c.tasks} tasks (single ${c.single}, multi ${c.multi})`);
console.log(`distinct tools used as gold: ${goldTools.size}`);
console.log(`\nper server: tasks whose gold names it (any grade) / with a grade-2 tool / as primary (first gold entry)`);
for (const s of [...servers].sort((a, b) => anyGold[b] - anyGold[a])) {
  console.log(`  ${s.padEnd(48)} ${String(anyGold[s]).padStart(4)} ${pct(anyGold[s]).padStart(6)}  ${String(grade2[s]).padStart(4)}  ${String(primary[s]).padStart(4)}`);
}
const covered = servers.filter((s) => grade2[s] > 0).length;
const maxS = servers.reduce((a, b) => (grade2[a] >= grade2[b] ? a : b));
const maxP = servers.reduce((a, b) => (primary[a] >= primary[b] ? a : b));
console.log(`\nservers with a grade-2 tool: ${covered}/${servers.length}`);
console.log(`max share (grade-2): ${maxS} ${grade2[maxS]} = ${pct(grade2[maxS])}`);
console.log(`max share (primary): ${maxP} ${primary[maxP]} = ${pct(primary[maxP])}`);
if (grade2[maxS] / n > 0.15) errors.push(`server ${maxS} over 15% of tasks`);
console.log(`\nwarnings: ${warnings.length}`);
for (const w of warnings) console.log("  " + w);
console.log(`errors: ${errors.length}`);
for (const e of errors) console.log("  " + e);
process.exit(errors.length ? 1 : 0);
