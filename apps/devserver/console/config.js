// The Config page: the running configuration (secrets redacted by the adapter's redactConfig;
// for one the devserver generated, that it has no file and what it serves), its warnings, and the last reload: what happened and, when the file was refused, each
// validation error at file:line:column.
import { getJson, h, pretty } from './api.js';

const $ = (id) => document.getElementById(id);

function where(issue) {
  const at = issue.line > 0 ? `${issue.file}:${issue.line}:${issue.column}` : `${issue.file}:`;
  return issue.path ? `${at} ${issue.path}: ${issue.message}` : `${at} ${issue.message}`;
}

export async function showConfig() {
  const body = $('config-body');
  let view;
  try {
    view = await getJson('/api/config');
  } catch (error) {
    body.replaceChildren(h('p', { class: 'bad' }, error.message));
    return;
  }
  const reload = view.lastReload;
  body.replaceChildren(
    h(
      'p',
      {},
      'From ',
      h('code', {}, view.origin),
      view.generated ? `: ${view.generated}` : '',
      '. Secrets (bearer tokens, source env values) are shown as [redacted].',
    ),
    h('h3', {}, 'Last reload'),
    !reload
      ? h('p', { class: 'dim' }, 'No reload yet (the file is watched when the devserver runs with --config).')
      : h(
          'div',
          { id: 'config-reload' },
          h(
            'p',
            { class: reload.ok ? 'ok' : 'bad' },
            `${new Date(reload.at).toISOString().slice(11, 19)} UTC: ${reload.message}`,
          ),
          reload.issues.length > 0
            ? h(
                'ul',
                {},
                reload.issues.map((i) => h('li', { class: 'mono' }, where(i))),
              )
            : null,
        ),
    h('h3', {}, 'Warnings'),
    view.warnings.length === 0
      ? h('p', { class: 'dim' }, 'none')
      : h(
          'ul',
          {},
          view.warnings.map((w) => h('li', { class: 'mono' }, where(w))),
        ),
    h('h3', {}, 'Running configuration'),
    h('pre', { id: 'config-json' }, pretty(view.config)),
  );
}
