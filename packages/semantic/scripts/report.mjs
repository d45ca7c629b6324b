// Description-quality and annotation report over every tool in testdata/mcp-servers:
// `pnpm --filter @xprotocol/semantic report` (after build). Prints the score distribution, the
// per-server means, the indicator pass rates, the worst tools with their findings, and sample
// annotations. `--json` prints the full per-tool result as JSON instead.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  annotateTools,
  classifyQualityScore,
  descriptionQualityScore,
  QUALITY_INDICATORS,
} from '../dist/index.js';
import { SERVERS_DIR } from './_testdata.mjs';

// XP_MCP_SERVERS_DIR: another folder of tools/list dumps in the same shape.
const DIR = process.env.XP_MCP_SERVERS_DIR ?? SERVERS_DIR;
const json = process.argv.includes('--json');
const worstCount = Number(process.argv.find((a) => a.startsWith('--worst='))?.slice(8) ?? 25);

const rows = [];
for (const file of readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const dump = JSON.parse(readFileSync(join(DIR, file), 'utf8'));
  const slug = dump.server?.slug ?? file.replace(/\.json$/, '');
  const namespace = `com.example.${slug.replace(/[^A-Za-z0-9]+/g, '_')}`;
  const tools = dump.tools ?? [];
  const annotations = annotateTools(tools, namespace);
  tools.forEach((tool, i) => {
    const quality = descriptionQualityScore(tool.description ?? '', { name: tool.name });
    rows.push({
      server: slug,
      kind: `${namespace}.${tool.name}`,
      tool: tool.name,
      description: tool.description ?? '',
      quality,
      verdict: classifyQualityScore(quality.score),
      semantic: annotations[i],
    });
  });
}

if (json) {
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
} else {
  const out = (line = '') => process.stdout.write(`${line}\n`);
  out(
    `# Description quality and annotations — ${rows.length} tools, ${new Set(rows.map((r) => r.server)).size} servers`,
  );
  out();
  out('## Score distribution (docs/design.md §7, five indicators × 0.2)');
  for (const fifths of [0, 1, 2, 3, 4, 5]) {
    const n = rows.filter((r) => r.quality.fifths === fifths).length;
    const bar = '█'.repeat(Math.round((n / rows.length) * 60));
    out(
      `${(fifths / 5).toFixed(1)}  ${String(n).padStart(4)}  ${((n / rows.length) * 100).toFixed(1).padStart(5)}%  ${bar}`,
    );
  }
  const mean = rows.reduce((s, r) => s + r.quality.fifths, 0) / rows.length / 5;
  out(`mean ${mean.toFixed(3)}`);
  const verdicts = { ok: 0, warn: 0, reject: 0 };
  for (const r of rows) verdicts[r.verdict]++;
  out(
    `default thresholds (warn < 0.40, reject < 0.20): ok ${verdicts.ok}, warn ${verdicts.warn}, reject ${verdicts.reject}`,
  );
  out();
  out('## Indicator pass rates');
  for (const ind of QUALITY_INDICATORS) {
    const n = rows.filter((r) => r.quality.indicators[ind]).length;
    out(
      `${ind.padEnd(18)} ${String(n).padStart(4)} / ${rows.length}  (${((n / rows.length) * 100).toFixed(1)}%)`,
    );
  }
  out();
  out('## Mean score per server');
  const servers = [...new Set(rows.map((r) => r.server))];
  const perServer = servers
    .map((s) => {
      const mine = rows.filter((r) => r.server === s);
      return { s, n: mine.length, mean: mine.reduce((a, r) => a + r.quality.fifths, 0) / mine.length / 5 };
    })
    .sort((a, b) => a.mean - b.mean || (a.s < b.s ? -1 : 1));
  for (const { s, n, mean: m } of perServer) out(`${m.toFixed(2)}  ${String(n).padStart(3)}  ${s}`);
  out();
  out(`## Worst ${worstCount} tools (lowest score, then kind)`);
  const worst = [...rows]
    .sort((a, b) => a.quality.fifths - b.quality.fifths || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0))
    .slice(0, worstCount);
  for (const r of worst) {
    const d = r.description.replace(/\s+/g, ' ');
    out(`- ${r.quality.score.toFixed(1)} ${r.kind} — "${d.length > 80 ? `${d.slice(0, 77)}…` : d}"`);
    for (const f of r.quality.findings) out(`    ✗ ${f.indicator}: ${f.message}. Fix: ${f.fix}`);
  }
  out();
  out('## Annotation coverage');
  const withVerb = rows.filter((r) => r.semantic.intent_verbs.length > 0).length;
  const withRelated = rows.filter((r) => r.semantic.related_schemas.length > 0).length;
  const withDont = rows.filter((r) => r.semantic.do_not_use_when.includes(' — use ')).length;
  out(
    `intent verbs ${withVerb}/${rows.length}; data subjects ${rows.filter((r) => r.semantic.data_subjects.length > 0).length}/${rows.length}; related schemas ${withRelated}/${rows.length}; do_not_use_when naming a sibling ${withDont}/${rows.length}`,
  );
  out();
  out('## Sample annotations');
  for (const name of [
    'read_file',
    'list_issues',
    'slack_post_message',
    'browser_snapshot',
    'take_screenshot',
    'kv_delete',
    'resolve-library-id',
  ]) {
    const r = rows.find((x) => x.tool === name);
    if (r) out(`- ${r.kind}: ${JSON.stringify(r.semantic)}`);
  }
}
