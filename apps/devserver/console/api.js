// The console's JSON API, same origin: the token travels in the cookie the first visit set, and a
// POST also carries the CSRF token that visit handed to this page (docs/devserver.md).

const CSRF_KEY = 'xp-console-csrf';

/**
 * Keeps the CSRF token of the first visit's redirect (`/#csrf=…`) and takes it out of the address
 * bar. It lives in this origin's storage, which, unlike a cookie, no other port can read.
 */
export function keepCsrfToken() {
  const handed = /^#csrf=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!handed) return;
  localStorage.setItem(CSRF_KEY, handed[1]);
  history.replaceState(null, '', location.pathname);
}

/** GET a JSON document; throws with the server's error message. */
export async function getJson(path) {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error ?? `${path}: HTTP ${response.status}`);
  return body;
}

/** POST a JSON body, get JSON back. */
export async function postJson(path, value) {
  const csrf = localStorage.getItem(CSRF_KEY);
  const response = await fetch(path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(csrf !== null && { 'x-xp-console-csrf': csrf }),
    },
    body: JSON.stringify(value),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error ?? `${path}: HTTP ${response.status}`);
  return body;
}

/** An element with attributes and children (strings become text: nothing is parsed as HTML). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false || value === null) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** The first 8 hex digits of an `ed25519:` key, `*` for none. */
export function shortKey(key) {
  if (!key) return '*';
  return (key.startsWith('ed25519:') ? key.slice(8) : key).slice(0, 8);
}

/** `512 B`, `1.2 kB`. */
export function formatBytes(bytes) {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** Pretty JSON. */
export function pretty(value) {
  return JSON.stringify(value, null, 2);
}
