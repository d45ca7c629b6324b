/**
 * The base URL an OpenAPI source's requests go to: the operator's `base_url` when given, else the
 * document's first `servers` entry with its variables filled in (the source's `server_variables`,
 * else each variable's default; a value outside the variable's `enum` is refused). A relative
 * server URL is read against the document's URL; a document read from a file has no URL to read
 * it against, so it needs `base_url`. Only `http` and `https` are accepted.
 * @module
 */
import { BridgeError } from '../errors.js';

/** Options of {@link resolveBaseUrl}. */
export interface BaseUrlOptions {
  /** The document's path or URL. */
  document: string;
  baseUrl?: string;
  serverVariables?: Readonly<Record<string, string>>;
}

/** The base URL, and whether it was learned from the document (then the address policy refuses special addresses). */
export function resolveBaseUrl(
  api: Record<string, unknown>,
  options: BaseUrlOptions,
): { baseUrl: string; learnedAddress: boolean } {
  if (options.baseUrl !== undefined)
    return { baseUrl: _http(options.baseUrl, 'base_url'), learnedAddress: false };
  const servers = (api.servers ?? []) as {
    url?: unknown;
    variables?: Record<string, { default?: string; enum?: string[] }>;
  }[];
  const first = servers[0];
  const template = typeof first?.url === 'string' ? first.url : '/';
  const variables = first?.variables ?? {};
  for (const name of Object.keys(options.serverVariables ?? {}))
    if (!Object.hasOwn(variables, name))
      throw new BridgeError(
        'INVALID_OPTIONS',
        `server_variables names ${name}, which the document's server ${template} does not have (it has ${Object.keys(variables).join(', ') || 'none'})`,
      );
  const filled = template.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const variable = variables[name];
    const value = options.serverVariables?.[name] ?? variable?.default;
    if (value === undefined)
      throw new BridgeError(
        'INVALID_OPTIONS',
        `the server ${template} has the variable {${name}} with no value; set server_variables.${name}`,
      );
    if (variable?.enum && !variable.enum.includes(value))
      throw new BridgeError(
        'INVALID_OPTIONS',
        `server_variables.${name}: expected one of ${variable.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`,
      );
    return value;
  });
  const fromUrl = /^https?:\/\//i.test(options.document);
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(filled);
  if (!absolute && !fromUrl)
    throw new BridgeError(
      'INVALID_OPTIONS',
      `the document's server URL ${JSON.stringify(filled)} is relative and the document is a file; set base_url`,
    );
  const baseUrl = _http(absolute ? filled : new URL(filled, options.document).href, "the document's server");
  // The document's own origin is the operator's (they named the document's URL); any other is learned.
  const sameOrigin = fromUrl && new URL(baseUrl).origin === new URL(options.document).origin;
  return { baseUrl, learnedAddress: !sameOrigin };
}

function _http(text: string, what: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BridgeError(
      'INVALID_OPTIONS',
      `${what}: expected an http or https URL, got ${JSON.stringify(text)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BridgeError(
      'INVALID_OPTIONS',
      `${what}: expected an http or https URL, got ${JSON.stringify(text)}`,
    );
  if (url.username || url.password)
    throw new BridgeError('INVALID_OPTIONS', `${what}: expected a URL without a user or password`);
  url.search = '';
  url.hash = '';
  return url.href;
}
