/**
 * Where a client's request goes when several upstreams are aggregated: prompts by their face name
 * (see gateway-names.ts), resources by URI (the upstream that listed it, else the upstream whose
 * template matches it), completions by the prompt or template they refer to. Learnt from the
 * listings any client made; kept for the face's life and shared by its clients (every client
 * sees the same upstreams).
 * @module
 */
import { UriTemplate } from '@modelcontextprotocol/client';
import { _GatewayNames } from './gateway-names.js';

/** The face's routing tables over its upstreams. */
export class _GatewayRoutes {
  readonly prompts: _GatewayNames;
  readonly resources: _GatewayNames;
  readonly templates: _GatewayNames;
  /** Resource URI -> the upstream that listed it first. */
  readonly #uris = new Map<string, string>();
  /** URI template -> its upstream and matcher. */
  readonly #templates = new Map<string, { source: string; matcher: UriTemplate | undefined }>();

  constructor(key: string, sha256: (data: Uint8Array) => Uint8Array) {
    this.prompts = new _GatewayNames(key, sha256);
    this.resources = new _GatewayNames(key, sha256);
    this.templates = new _GatewayNames(key, sha256);
  }

  /** Notes that `source` listed the resource `uri` (the first upstream to list a URI keeps it). */
  noteResource(source: string, uri: string): void {
    if (!this.#uris.has(uri)) this.#uris.set(uri, source);
  }

  /** Notes that `source` listed the template `uriTemplate`. */
  noteTemplate(source: string, uriTemplate: string): void {
    if (this.#templates.has(uriTemplate)) return;
    let matcher: UriTemplate | undefined;
    try {
      matcher = new UriTemplate(uriTemplate);
    } catch {
      matcher = undefined;
    }
    this.#templates.set(uriTemplate, { source, matcher });
  }

  /** The upstream serving `uri`, when a listing told: an exact URI first, then a template. */
  resourceOwner(uri: string): string | undefined {
    const exact = this.#uris.get(uri);
    if (exact !== undefined) return exact;
    for (const { source, matcher } of this.#templates.values()) {
      if (matcher?.match(uri)) return source;
    }
    return undefined;
  }

  /**
   * One entry of `source`'s listing (`prompts/list`, `resources/list` or
   * `resources/templates/list`) as the aggregate lists it: noted for routing, its name replaced by
   * the aggregated one.
   */
  noteListed(
    method: 'prompts/list' | 'resources/list' | 'resources/templates/list',
    source: string,
    item: Record<string, unknown>,
  ): Record<string, unknown> {
    const name = typeof item.name === 'string' ? item.name : undefined;
    if (method === 'prompts/list') {
      return name === undefined ? item : { ...item, name: this.prompts.assign(source, name) };
    }
    if (method === 'resources/list') {
      if (typeof item.uri === 'string') this.noteResource(source, item.uri);
      return name === undefined ? item : { ...item, name: this.resources.assign(source, name) };
    }
    if (typeof item.uriTemplate === 'string') this.noteTemplate(source, item.uriTemplate);
    return name === undefined ? item : { ...item, name: this.templates.assign(source, name) };
  }

  /** The upstream that listed the template `uriTemplate`. */
  templateOwner(uriTemplate: string): string | undefined {
    return this.#templates.get(uriTemplate)?.source;
  }

  /**
   * The upstreams of `offering` that a request for one entry (`resources/read`, `…/subscribe`,
   * `…/unsubscribe`, `prompts/get`, `completion/complete`) may go to, from what the listings told
   * so far and without reading any: the entry's upstream when it is known, else every one.
   */
  targets(
    method: string,
    params: Record<string, unknown> | undefined,
    offering: readonly string[],
  ): string[] {
    const known = this.#owner(method, params);
    return known !== undefined && offering.includes(known) ? [known] : [...offering];
  }

  #owner(method: string, params: Record<string, unknown> | undefined): string | undefined {
    if (method === 'prompts/get' && typeof params?.name === 'string')
      return this.prompts.resolve(params.name)?.source;
    if (method.startsWith('resources/') && typeof params?.uri === 'string')
      return this.resourceOwner(params.uri);
    if (method !== 'completion/complete') return undefined;
    const ref = (params?.ref ?? {}) as Record<string, unknown>;
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string')
      return this.prompts.resolve(ref.name)?.source;
    if (ref.type === 'ref/resource' && typeof ref.uri === 'string')
      return this.templateOwner(ref.uri) ?? this.resourceOwner(ref.uri);
    return undefined;
  }
}
