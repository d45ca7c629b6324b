/**
 * `node dist/bin.js [--quick] [--suite id,…] [--json FILE] [--update-docs] [--markdown FILE]`:
 * runs the suites (gateway, xp, relay, memory, startup, chain), printing each table on stdout as it
 * completes; writes the JSON document (to results/performance.json unless `--json`, and to
 * docs/performance.json with `--update-docs`: see outputs.ts) and a Markdown file of the tables
 * when asked. Progress goes to stderr.
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_JSON, DOCS_JSON, jsonOutputs } from './outputs.js';
import { describeMachine, markdownTable, runDocument, textTable } from './report.js';
import type { SuiteOptions, SuiteResult } from './suite.js';
import { SUITES } from './suites/index.js';

// The MCP SDK client adds an abort listener per request to its transport's signal and warns past
// 1500 of them, once per call at concurrency 32: one line says so, instead of thousands.
let listenerWarnings = 0;
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'MaxListenersExceededWarning') {
    if (listenerWarnings++ === 0) console.error(`[bench] (harness) ${warning.message} (shown once)`);
    return;
  }
  console.error(warning);
});

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    suite: { type: 'string' },
    json: { type: 'string' },
    'update-docs': { type: 'boolean', default: false },
    markdown: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  const where = (path: string) => relative(process.cwd(), path) || path;
  console.log(`usage: node dist/bin.js [--quick] [--suite ${Object.keys(SUITES).join(',')}] [--json FILE] [--update-docs] [--markdown FILE]

  --quick          shorter runs
  --suite LIST     the suites to run (default: all)
  --json FILE      where to write the run's JSON (default: ${where(DEFAULT_JSON)}, not tracked)
  --update-docs    also write it to ${where(DOCS_JSON)}, the published run (tracked)
  --markdown FILE  also write the tables as Markdown`);
  process.exit(0);
}
const wanted = values.suite?.split(',') ?? Object.keys(SUITES);
for (const id of wanted) {
  if (!(id in SUITES)) {
    console.error(`--suite: expected one of ${Object.keys(SUITES).join(', ')}, got ${JSON.stringify(id)}`);
    process.exit(2);
  }
}
const machine = describeMachine();
console.log(
  `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, load average ${machine.loadStart.join(' ')}`,
);
const options: SuiteOptions = {
  size: values.quick ? 'quick' : 'full',
  log: (line) => console.error(`[bench] ${line}`),
};
const results: SuiteResult[] = [];
for (const id of wanted) {
  const result = await SUITES[id]!(options);
  results.push(result);
  console.log(`\n## ${result.title}\n`);
  for (const table of result.tables) console.log(`${textTable(table)}\n`);
}
machine.loadEnd = loadavg().map((x) => Math.round(x * 100) / 100);
console.log(`load average at the end: ${machine.loadEnd.join(' ')}`);
const document = `${JSON.stringify(runDocument(machine, results, options.size), null, 2)}\n`;
for (const file of jsonOutputs({
  ...(values.json !== undefined && { json: values.json }),
  updateDocs: values['update-docs'],
})) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, document);
  console.error(`[bench] wrote ${file}`);
}
if (values.markdown) {
  writeFileSync(
    values.markdown,
    `${results.map((r) => `### ${r.title}\n\n${r.tables.map(markdownTable).join('\n\n')}`).join('\n\n')}\n`,
  );
}
