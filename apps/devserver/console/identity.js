// The Identity page: for the adapter and each xprotocol_sources entry named by key, its newest
// announce on the local relay and its delegation chain — the root, each link (issuer → delegated
// key, capabilities, window), the chain's window and expiry, and the chain check's verdict against
// the devserver's trust roots. An announce is remote data: everything is rendered with h(), as text.
import { getJson, h } from './api.js';

const $ = (id) => document.getElementById(id);

function when(seconds) {
  const n = Number(seconds);
  return Number.isSafeInteger(n) && n >= 0 && n < 8.64e12
    ? `${new Date(n * 1000).toISOString().slice(0, 19)}Z`
    : String(seconds);
}

function verdictLine(verdict) {
  if (!verdict.checked) return h('p', { class: 'dim chain-verdict' }, verdict.reason);
  if (verdict.ok)
    return h(
      'p',
      { class: 'ok chain-verdict' },
      `accepted by the chain check: the chain vouches for this key with ${verdict.capabilities.join(', ')} (chain ${verdict.chainId.slice(0, 12)}…)`,
    );
  const at = verdict.link === undefined ? '' : ` at link ${verdict.link}`;
  return h('p', { class: 'bad chain-verdict' }, `refused (${verdict.code}${at}): ${verdict.message}`);
}

function chainView(chain) {
  const window = chain.window
    ? h(
        'p',
        { class: chain.window.expired ? 'bad' : '' },
        `Valid from ${when(chain.window.notBefore)} to ${when(chain.window.expiresAt)}`,
        chain.window.expired ? ' — expired' : '',
      )
    : h('p', { class: 'bad' }, 'Window: a link does not state not_before and expires_at as numbers');
  return h(
    'div',
    { class: 'chain' },
    h('p', {}, 'Root ', h('code', { class: 'chain-root' }, chain.root)),
    window,
    verdictLine(chain.verdict),
    h(
      'table',
      { class: 'chain-links' },
      h('caption', { class: 'sr-only' }, 'Links, root first'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['#', 'Issuer → delegated key', 'Capabilities', 'Valid from', 'Until'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        chain.links.map((link) =>
          h(
            'tr',
            {},
            h('td', {}, String(link.index)),
            h(
              'td',
              { class: 'mono' },
              link.issuer,
              ' → ',
              link.delegatedKey,
              link.onBehalfOf ? ` (on behalf of ${link.onBehalfOf})` : '',
            ),
            h('td', { class: 'mono' }, link.capabilities.join(', ')),
            h('td', {}, when(link.notBefore)),
            h('td', {}, when(link.expiresAt)),
          ),
        ),
      ),
    ),
  );
}

function endpointView(endpoint) {
  return h(
    'article',
    { class: 'endpoint-identity' },
    h('h3', {}, endpoint.name, ' ', h('code', { class: 'dim' }, endpoint.key)),
    !endpoint.announce
      ? h('p', { class: 'dim' }, 'No announce from this key on the local relay.')
      : h(
          'p',
          { class: 'dim' },
          `Announce ${endpoint.announce.id.slice(0, 12)}… of ${when(endpoint.announce.createdAt)}`,
        ),
    endpoint.problem ? h('p', { class: 'bad' }, endpoint.problem) : null,
    endpoint.announce && !endpoint.chain && !endpoint.problem
      ? h('p', {}, 'No delegation_chain: nobody vouches for this key.')
      : null,
    endpoint.chain ? chainView(endpoint.chain) : null,
  );
}

export async function showIdentity() {
  const body = $('identity-body');
  let view;
  try {
    view = await getJson('/api/identity');
  } catch (error) {
    body.replaceChildren(h('p', { class: 'bad' }, error.message));
    return;
  }
  body.replaceChildren(
    h(
      'p',
      { class: 'dim' },
      view.trustRoots.length === 0 ? 'Trust roots: none.' : `Trust roots: ${view.trustRoots.join(', ')}`,
    ),
    ...view.endpoints.map(endpointView),
  );
}
