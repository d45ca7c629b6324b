// The Live events page: server-sent events of what the relay handles (kind, sender → recipient,
// size, verdict, latency), refusals with their reason; pause and filter. The stream runs from the
// first page load, so nothing is missed while another page is shown.
import { formatBytes, h, shortKey } from './api.js';

const rows = [];
const held = [];
let paused = false;
let wired = false;
const $ = (id) => document.getElementById(id);

export function startEvents() {
  const source = new EventSource('/api/events');
  source.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (paused) {
      held.push(event);
      count();
      return;
    }
    add(event);
  };
  source.onerror = () => {
    $('events-count').textContent = 'stream interrupted: reconnecting…';
  };
}

export function showEvents() {
  if (wired) return;
  wired = true;
  $('events-pause').addEventListener('click', () => {
    paused = !paused;
    $('events-pause').setAttribute('aria-pressed', String(paused));
    $('events-pause').textContent = paused ? 'Resume' : 'Pause';
    if (!paused) for (const event of held.splice(0)) add(event);
    count();
  });
  $('events-filter').addEventListener('input', refilter);
  $('events-refusals').addEventListener('change', refilter);
  count();
}

function isRefusal(event) {
  return event.type === 'refused' || event.verdict === 'failed' || event.refusal !== undefined;
}

function text(event) {
  return [
    event.kind,
    event.from,
    event.to,
    event.verdict,
    event.reason,
    event.refusal?.code,
    event.refusal?.message,
  ]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
}

function matches(event) {
  const filter = $('events-filter').value.trim().toLowerCase();
  if ($('events-refusals').checked && !isRefusal(event)) return false;
  return filter === '' || text(event).includes(filter);
}

function add(event) {
  rows.push(event);
  if (rows.length > 2000) rows.shift();
  const tbody = $('events-table').querySelector('tbody');
  const row = render(event);
  row.hidden = !matches(event);
  tbody.prepend(row);
  if (tbody.children.length > 2000) tbody.lastElementChild.remove();
  count();
}

function refilter() {
  for (const row of $('events-table').querySelectorAll('tbody tr')) row.hidden = !matches(row.event);
  count();
}

function count() {
  const shown = [...$('events-table').querySelectorAll('tbody tr')].filter((r) => !r.hidden).length;
  $('events-count').textContent =
    `${shown} of ${rows.length} shown${paused ? ` · paused, ${held.length} new` : ''}`;
}

function time(at) {
  return new Date(at).toISOString().slice(11, 23);
}

function render(event) {
  let row;
  if (event.type === 'refused') {
    row = h(
      'tr',
      { class: 'refused', 'data-kind': event.kind ?? '' },
      h('td', { class: 'mono' }, time(event.at)),
      h('td', { class: 'mono' }, event.kind ?? `${event.count} event${event.count === 1 ? '' : 's'}`),
      h('td', { class: 'mono' }, event.from ? `${shortKey(event.from)} → relay` : ''),
      h('td', {}, ''),
      h('td', { class: 'verdict-refused' }, `refused by the relay: ${event.reason}`),
      h('td', {}, ''),
    );
  } else {
    const verdict =
      event.refusal !== undefined
        ? h('span', { class: 'verdict-refused' }, `refused: ${event.refusal.code}: ${event.refusal.message}`)
        : event.verdict === 'stored'
          ? h('span', { class: 'verdict-stored' }, 'OK')
          : event.verdict === 'duplicate'
            ? h('span', { class: 'dim' }, 'OK duplicate')
            : h('span', { class: 'verdict-failed' }, 'refused: could not store');
    row = h(
      'tr',
      { 'data-kind': event.kind, 'data-id': event.id },
      h('td', { class: 'mono' }, time(event.at)),
      h('td', { class: 'mono' }, event.kind),
      h('td', { class: 'mono' }, `${shortKey(event.from)} → ${shortKey(event.to)}`),
      h('td', { class: 'num' }, formatBytes(event.bytes)),
      h('td', {}, verdict),
      h('td', { class: 'num' }, event.latencyMs === undefined ? '' : `${event.latencyMs} ms`),
    );
  }
  row.event = event;
  return row;
}
