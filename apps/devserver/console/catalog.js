// The Catalog page: every published tool with its kind, version, capability and quality score;
// search through the adapter's xp.schema.describe index; filter by server and by finding; one
// tool's card with the findings (and their fixes), annotations, input schema and GBNF grammar.
import { getJson, h, pretty } from './api.js';

let catalog;
let searchTimer;
let searchSeq = 0;
/** Kind → relevance, best first, while the search box has text. */
let ranked;

const $ = (id) => document.getElementById(id);

export async function showCatalog(kind) {
  if (!catalog) await load();
  if (kind) await showTool(kind);
  else {
    $('tool-detail').hidden = true;
    $('catalog-table').hidden = false;
  }
}

async function load() {
  catalog = await getJson('/api/catalog');
  const servers = $('catalog-server');
  for (const source of catalog.sources)
    servers.append(h('option', { value: source.name }, `${source.name} (${source.namespace})`));
  renderSources();
  render();
  $('catalog-search').addEventListener('input', onSearch);
  $('catalog-server').addEventListener('change', render);
  $('catalog-finding').addEventListener('change', render);
}

function renderSources() {
  const box = $('catalog-sources');
  box.replaceChildren(
    ...catalog.sources.map((source) =>
      h(
        'p',
        { class: source.connected ? 'dim' : 'source-bad' },
        `${source.name}: ${source.namespace}, ${source.toolCount} tools${source.connected ? '' : `, not connected: ${source.error ?? ''}`}`,
        source.refused.length > 0
          ? h(
              'details',
              {},
              h('summary', {}, `${source.refused.length} not published`),
              h(
                'ul',
                {},
                source.refused.map((r) => h('li', {}, h('code', {}, r.tool), `: ${r.reason}`)),
              ),
            )
          : null,
      ),
    ),
  );
}

function onSearch() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(async () => {
    const text = $('catalog-search').value.trim();
    const seq = ++searchSeq;
    if (text === '') {
      ranked = undefined;
    } else {
      try {
        const { matches } = await getJson(`/api/search?q=${encodeURIComponent(text)}`);
        if (seq !== searchSeq) return;
        ranked = new Map(matches.map((m) => [m.kind, m.relevance]));
      } catch (error) {
        $('catalog-count').textContent = `search failed: ${error.message}`;
        return;
      }
    }
    render();
  }, 150);
}

function visible() {
  const server = $('catalog-server').value;
  const finding = $('catalog-finding').value;
  let tools = catalog.tools.filter((tool) => {
    if (server && tool.server !== server) return false;
    if (finding === 'with') return tool.findings.length > 0;
    if (finding === 'none') return tool.findings.length === 0;
    if (finding) return tool.findings.some((f) => f.indicator === finding);
    return true;
  });
  if (ranked)
    tools = tools.filter((t) => ranked.has(t.kind)).sort((a, b) => ranked.get(b.kind) - ranked.get(a.kind));
  return tools;
}

function render() {
  const tools = visible();
  // Marked once, when the first full list is in the page (the browser test reads it).
  if (performance.getEntriesByName('xp-catalog-rendered').length === 0)
    performance.mark('xp-catalog-rendered');
  $('catalog-count').textContent =
    `${tools.length} of ${catalog.tools.length} tools${ranked ? ' matching the search, best first' : ''}`;
  $('catalog-table')
    .querySelector('tbody')
    .replaceChildren(
      ...tools.map((tool) =>
        h(
          'tr',
          {},
          h(
            'td',
            {},
            h('a', { href: `#/catalog/${encodeURIComponent(tool.kind)}`, class: 'mono' }, tool.kind),
            tool.title ? h('div', { class: 'dim' }, tool.title) : null,
          ),
          h('td', { class: 'mono' }, tool.version),
          h('td', { class: 'mono' }, tool.capability),
          h('td', { class: 'num' }, `${Math.round(tool.score * 5)}/5`),
          h(
            'td',
            {},
            tool.findings.length === 0
              ? h('span', { class: 'ok' }, 'none')
              : tool.findings.map((f) => f.indicator).join(', '),
          ),
        ),
      ),
    );
}

async function showTool(kind) {
  const detail = $('tool-detail');
  let tool;
  try {
    tool = await getJson(`/api/tool?kind=${encodeURIComponent(kind)}`);
  } catch (error) {
    detail.replaceChildren(h('p', { class: 'bad' }, error.message));
    detail.hidden = false;
    return;
  }
  $('catalog-table').hidden = true;
  detail.replaceChildren(
    h('p', {}, h('a', { href: '#/catalog' }, '← all tools')),
    h('h3', { tabindex: '-1', id: 'tool-title' }, h('span', { class: 'mono' }, tool.kind)),
    tool.title ? h('p', {}, tool.title) : null,
    h('p', {}, tool.description),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'version'),
      h('dd', { class: 'mono' }, tool.version),
      h('dt', {}, 'capability'),
      h('dd', { class: 'mono' }, tool.capability),
      h('dt', {}, 'server'),
      h('dd', {}, `${tool.server} (MCP tool `, h('code', {}, tool.tool), ')'),
      h('dt', {}, 'answer kind'),
      h('dd', { class: 'mono' }, tool.responseKind),
      h('dt', {}, 'quality score'),
      h('dd', {}, `${tool.score} (${Math.round(tool.score * 5)} of 5 indicators pass)`),
    ),
    h('p', {}, h('a', { href: `#/call/${encodeURIComponent(tool.kind)}` }, 'Try a call of this tool →')),
    h('h3', {}, 'Findings'),
    tool.findings.length === 0
      ? h('p', { class: 'ok' }, 'Every quality indicator passes.')
      : h(
          'ul',
          { class: 'findings' },
          tool.findings.map((f) =>
            h(
              'li',
              {},
              h('strong', {}, f.indicator),
              `: ${f.message} `,
              h('br'),
              h('span', { class: 'dim' }, 'Fix: '),
              f.fix,
            ),
          ),
        ),
    h('h3', {}, 'Annotations'),
    h('pre', {}, pretty(tool.annotations)),
    tool.semantic
      ? h('details', {}, h('summary', {}, 'Semantic annotations'), h('pre', {}, pretty(tool.semantic)))
      : null,
    h('h3', {}, 'Input schema'),
    h('pre', { id: 'tool-schema' }, pretty(tool.inputSchema)),
    h(
      'h3',
      {},
      `GBNF grammar `,
      h(
        'span',
        { class: 'dim' },
        `(${tool.grammarStatus.state}${tool.grammarStatus.reason ? `: ${tool.grammarStatus.reason}` : ''})`,
      ),
    ),
    h('pre', { id: 'tool-grammar' }, tool.grammar ?? 'no grammar'),
  );
  detail.hidden = false;
  $('tool-title').focus();
}
