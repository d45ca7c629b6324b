// The Try-a-call page: pick a tool, fill the form generated from its input schema, check it in
// the browser with the same schema, and send it through the relay as a real signed call from the
// console's dev client key. Shows the request event, the answer event and the decoded answer.
import { formatBytes, getJson, h, postJson, pretty, shortKey } from './api.js';
import { buildForm, validate } from './schema-form.js';

let tools;
let current;
let readPayload = () => ({});
let wired = false;
const $ = (id) => document.getElementById(id);

export async function showCall(kind) {
  if (!tools) {
    tools = (await getJson('/api/catalog')).tools;
    $('call-kind').replaceChildren(...tools.map((t) => h('option', { value: t.kind }, t.kind)));
  }
  if (!wired) {
    wired = true;
    $('call-kind').addEventListener('change', () => {
      location.hash = `#/call/${encodeURIComponent($('call-kind').value)}`;
    });
    $('call-form').addEventListener('input', preview);
    $('call-form').addEventListener('submit', (event) => {
      event.preventDefault();
      send().catch((error) => {
        $('call-result').replaceChildren(h('p', { class: 'bad' }, error.message));
      });
    });
  }
  const chosen = kind ?? current?.kind ?? tools[0]?.kind;
  if (!chosen) {
    $('call-fields').replaceChildren(h('p', {}, 'No tool is published yet.'));
    return;
  }
  if (current?.kind !== chosen) {
    current = await getJson(`/api/tool?kind=${encodeURIComponent(chosen)}`);
    $('call-kind').value = chosen;
    readPayload = buildForm($('call-fields'), current.inputSchema);
    $('call-errors').replaceChildren();
    $('call-result').replaceChildren();
    preview();
  }
}

function preview() {
  $('call-preview').textContent = pretty(readPayload());
}

async function send() {
  const payload = readPayload();
  const { errors, skipped } = validate(current.inputSchema, payload);
  const box = $('call-errors');
  box.replaceChildren();
  if (errors.length > 0) {
    box.append(
      h('p', {}, `The browser check found ${errors.length} problem${errors.length === 1 ? '' : 's'}:`),
      h(
        'ul',
        {},
        errors.map((e) => h('li', { class: 'mono' }, e)),
      ),
    );
    if (!$('call-force').checked) {
      box.append(
        h(
          'p',
          { class: 'dim' },
          'Fix them, or tick "send even if the browser check fails" to see the adapter refuse the call.',
        ),
      );
      return;
    }
  }
  if (skipped.length > 0)
    box.append(
      h('p', { class: 'dim' }, `Not checked in the browser (the adapter checks them): ${skipped.join(', ')}`),
    );
  $('call-send').disabled = true;
  $('call-result').replaceChildren(h('p', { class: 'dim' }, `calling ${current.kind}…`));
  try {
    const result = await postJson('/api/call', {
      kind: current.kind,
      payload,
      signer: $('call-signer').value,
    });
    $('call-result').replaceChildren(...show(result).filter(Boolean));
  } finally {
    $('call-send').disabled = false;
  }
}

function eventFacts(title, event) {
  if (!event) return h('p', { class: 'dim' }, `${title}: none`);
  return h(
    'div',
    {},
    h('h3', {}, title),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'kind'),
      h('dd', { class: 'mono' }, event.kind),
      h('dt', {}, 'id'),
      h('dd', { class: 'mono' }, event.id),
      h('dt', {}, 'sender → recipient'),
      h('dd', { class: 'mono' }, `${shortKey(event.from)} → ${shortKey(event.to)}`),
      h('dt', {}, 'size'),
      h('dd', {}, formatBytes(event.bytes)),
    ),
  );
}

function show(result) {
  const texts = Array.isArray(result.payload?.content)
    ? result.payload.content.filter((c) => c?.type === 'text').map((c) => c.text)
    : [];
  return [
    result.ok
      ? h(
          'p',
          { class: 'ok', id: 'call-outcome' },
          `Answered in ${Math.round(result.roundTripMs)} ms${result.payload?.isError ? ' (the tool reported an error)' : ''}.`,
        )
      : h(
          'p',
          { class: 'bad', id: 'call-outcome' },
          `Refused: ${result.error.code}: ${result.error.message}`,
        ),
    eventFacts('Request event', result.request),
    eventFacts('Answer event', result.answer),
    result.ok ? h('h3', {}, 'Decoded answer') : null,
    texts.length > 0 ? h('pre', { id: 'call-answer-text' }, texts.join('\n')) : null,
    result.ok
      ? h(
          'details',
          { open: texts.length === 0 },
          h('summary', {}, 'As JSON'),
          h('pre', {}, pretty(result.payload)),
        )
      : null,
  ];
}
