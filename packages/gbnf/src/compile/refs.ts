/**
 * Local `$ref` resolution: `#`, JSON pointers (`#/$defs/x`, `#/definitions/x`, `~0` `~1` and
 * percent escapes), `$id`/`id`-relative URIs and anchors inside the same document. Anything that
 * would need another document is a {@link GbnfCompileError} (`REMOTE_REF`).
 * @module
 */
import {
  ARRAY_SUBSCHEMA_KEYWORDS,
  MAP_SUBSCHEMA_KEYWORDS,
  type SchemaDialect,
  SINGLE_SUBSCHEMA_KEYWORDS,
} from '@xprotocol/json-schema-vocabulary';
import { GbnfCompileError } from './compile-error.js';

/** @internal A schema with where it sits: its JSON pointer and its base URI. */
export interface _Loc {
  readonly schema: unknown;
  readonly ptr: string;
  readonly base: string;
  /** Only the schema's own keywords apply (its combinators and `$ref` were already expanded). */
  readonly own?: true;
}

const DEFAULT_BASE = 'https://gbnf.invalid/schema.json';

/** @internal Escapes one JSON-pointer segment (RFC 6901). */
export function _ptrSeg(seg: string | number): string {
  return String(seg).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** @internal The resource index of one root schema. */
export class _RefIndex {
  private readonly resources = new Map<string, _Loc>();
  private readonly anchors = new Map<string, _Loc>();
  readonly dynamic: boolean;
  readonly root: _Loc;
  private readonly draft: SchemaDialect;

  constructor(root: unknown, draft: SchemaDialect) {
    this.draft = draft;
    let dynamic = false;
    const rootBase = this.idOf(root, DEFAULT_BASE) ?? DEFAULT_BASE;
    this.root = { schema: root, ptr: '#', base: rootBase };
    this.resources.set(stripHash(rootBase), this.root);
    if (stripHash(rootBase) !== DEFAULT_BASE) this.resources.set(DEFAULT_BASE, this.root);
    const seen = new Set<unknown>();
    const walk = (loc: _Loc) => {
      const s = loc.schema;
      if (s === null || typeof s !== 'object' || Array.isArray(s) || seen.has(s)) return;
      seen.add(s);
      const o = s as Record<string, unknown>;
      let base = loc.base;
      const id = this.idOf(o, base);
      if (id !== undefined) {
        const hashAt = id.indexOf('#');
        if (hashAt >= 0 && hashAt < id.length - 1) {
          this.anchors.set(id, { ...loc, base: stripHash(id) });
          base = stripHash(id);
        } else {
          base = stripHash(id);
          if (!this.resources.has(base)) this.resources.set(base, { ...loc, base });
        }
      }
      if (typeof o.$anchor === 'string')
        this.anchors.set(`${stripHash(base)}#${o.$anchor}`, { ...loc, base });
      if (typeof o.$dynamicAnchor === 'string' || o.$recursiveAnchor === true) dynamic = true;
      const here = { ...loc, base };
      // `items` (one schema, or an array before 2020-12) is in both lists; `dependencies` entries that
      // are name arrays are skipped by `walk` like any non-schema.
      for (const k of SINGLE_SUBSCHEMA_KEYWORDS)
        if (k in o && !Array.isArray(o[k])) walk(child(here, o[k], k));
      for (const k of MAP_SUBSCHEMA_KEYWORDS) {
        const m = o[k];
        if (m && typeof m === 'object' && !Array.isArray(m)) {
          for (const [name, sub] of Object.entries(m)) walk(child(here, sub, k, name));
        }
      }
      for (const k of ARRAY_SUBSCHEMA_KEYWORDS) {
        const a = o[k];
        if (Array.isArray(a)) {
          a.forEach((sub, i) => {
            walk(child(here, sub, k, i));
          });
        }
      }
    };
    walk(this.root);
    this.dynamic = dynamic;
  }

  private idOf(schema: unknown, base: string): string | undefined {
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
    const o = schema as Record<string, unknown>;
    // draft-04 spells it `id`; in later drafts `$id`. `$ref` siblings are ignored up to draft-07.
    const raw = this.draft === 'draft-04' ? (o.id ?? o.$id) : o.$id;
    if (
      typeof raw !== 'string' ||
      raw === '' ||
      (this.draft !== '2019-09' && this.draft !== '2020-12' && '$ref' in o)
    ) {
      return undefined;
    }
    try {
      return new URL(raw, base).href;
    } catch {
      return undefined;
    }
  }

  /** Resolves `$ref` written in the schema at `from` (pointer of the `$ref` keyword: `at`). */
  resolve(ref: string, from: _Loc, at: string): _Loc {
    let url: URL;
    try {
      url = new URL(ref, from.base);
    } catch {
      throw new GbnfCompileError(
        'UNRESOLVED_REF',
        at,
        `expected a URI reference, got ${JSON.stringify(ref)}`,
      );
    }
    const doc = stripHash(url.href);
    const fragment = url.hash.startsWith('#') ? url.hash.slice(1) : '';
    if (fragment !== '' && !fragment.startsWith('/')) {
      const anchored =
        this.anchors.get(`${doc}#${decodeFragment(fragment, at)}`) ?? this.anchors.get(`${doc}#${fragment}`);
      if (anchored) return anchored;
      throw new GbnfCompileError(
        'UNRESOLVED_REF',
        at,
        `no anchor ${JSON.stringify(fragment)} for $ref ${JSON.stringify(ref)}`,
      );
    }
    const resource = this.resources.get(doc);
    if (!resource) {
      throw new GbnfCompileError(
        'REMOTE_REF',
        at,
        `$ref ${JSON.stringify(ref)} points outside this schema (${doc}); only local references can be compiled`,
      );
    }
    let cur: _Loc = resource;
    if (fragment === '') return cur;
    for (const raw of decodeFragment(fragment, at).split('/').slice(1)) {
      const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      const s = cur.schema;
      let next: unknown;
      if (Array.isArray(s) && /^(0|[1-9][0-9]*)$/.test(seg)) next = s[Number(seg)];
      else if (s !== null && typeof s === 'object' && !Array.isArray(s) && Object.hasOwn(s, seg)) {
        next = (s as Record<string, unknown>)[seg];
      }
      if (next === undefined) {
        throw new GbnfCompileError(
          'UNRESOLVED_REF',
          at,
          `$ref ${JSON.stringify(ref)}: nothing at segment ${JSON.stringify(seg)}`,
        );
      }
      const nextBase = this.idOf(next, cur.base);
      cur = {
        schema: next,
        ptr: `${cur.ptr}/${_ptrSeg(seg)}`,
        base: nextBase ? stripHash(nextBase) : cur.base,
      };
    }
    return cur;
  }
}

function child(loc: _Loc, schema: unknown, ...segs: (string | number)[]): _Loc {
  return { schema, ptr: `${loc.ptr}/${segs.map(_ptrSeg).join('/')}`, base: loc.base };
}

function stripHash(uri: string): string {
  const i = uri.indexOf('#');
  return i < 0 ? uri : uri.slice(0, i);
}

function decodeFragment(fragment: string, at: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    throw new GbnfCompileError(
      'UNRESOLVED_REF',
      at,
      `malformed percent-encoding in $ref fragment ${JSON.stringify(fragment)}`,
    );
  }
}

/** @internal A child location. */
export function _child(loc: _Loc, schema: unknown, ...segs: (string | number)[]): _Loc {
  return child(loc, schema, ...segs);
}
