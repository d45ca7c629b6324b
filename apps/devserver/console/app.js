// The console's entry: hash routes (#/catalog, #/catalog/<kind>, #/events, #/call/<kind>,
// #/config, #/identity), the header status line, and the "/" shortcut to the catalog search.
import { getJson, keepCsrfToken, shortKey } from './api.js';
import { showCatalog } from './catalog.js';
import { showConfig } from './config.js';
import { showEvents, startEvents } from './events.js';
import { showIdentity } from './identity.js';
import { showCall } from './try-call.js';

const pages = {
  catalog: showCatalog,
  events: showEvents,
  call: showCall,
  config: showConfig,
  identity: showIdentity,
};

async function route() {
  const [, page = 'catalog', ...rest] = (location.hash || '#/catalog').split('/');
  const name = page in pages ? page : 'catalog';
  const argument = rest.length > 0 ? decodeURIComponent(rest.join('/')) : undefined;
  for (const section of document.querySelectorAll('main > section'))
    section.hidden = section.dataset.page !== name;
  for (const link of document.querySelectorAll('nav a')) {
    if (link.dataset.page === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = `${document.querySelector(`nav a[data-page="${name}"]`).textContent} · XProtocol DevServer`;
  await pages[name](argument);
}

async function status() {
  const element = document.getElementById('status');
  try {
    const s = await getJson('/api/status');
    element.textContent = `adapter ${shortKey(s.adapterKey)}… on ${s.relayUrl} · console key ${shortKey(s.consoleKey)}… · v${s.version}`;
  } catch (error) {
    element.textContent = `not connected: ${error.message}`;
    element.className = 'bad';
  }
}

document.addEventListener('keydown', (event) => {
  const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement?.tagName ?? '');
  if (event.key === '/' && !typing) {
    event.preventDefault();
    if (!location.hash.startsWith('#/catalog')) location.hash = '#/catalog';
    setTimeout(() => document.getElementById('catalog-search').focus(), 0);
  }
});
window.addEventListener('hashchange', () => {
  route().catch(console.error);
});
keepCsrfToken();
startEvents();
status();
route().catch(console.error);
