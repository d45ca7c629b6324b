import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bumpVersion,
  compareContracts,
  compareSchemas,
  type JsonObject,
  nextVersion,
  SchemaCompiler,
  type SchemaContract,
  TranslateError,
  translateSource,
} from '../src/index.js';

const BASE_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Relative path' },
    encoding: { type: 'string', enum: ['utf-8', 'base64'] },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
  },
  required: ['path'],
};

function contract(
  payload: JsonObject,
  extra: { description?: string; tool?: Record<string, unknown> } = {},
): SchemaContract {
  const out = translateSource({
    name: 'fs',
    namespace: 'com.acme.fs',
    adapterVersion: '0.1.0',
    tools: [
      {
        name: 'read_file',
        description: extra.description ?? 'Read a file',
        inputSchema: payload,
        ...extra.tool,
      },
    ],
  });
  const c = out.contracts[0];
  if (c === undefined) throw new Error(`not translated: ${JSON.stringify(out.refused)}`);
  return c;
}

function mutate(
  f: (s: JsonObject & { properties: Record<string, JsonObject>; required: string[] }) => void,
): JsonObject {
  const copy = structuredClone(BASE_SCHEMA) as JsonObject & {
    properties: Record<string, JsonObject>;
    required: string[];
  };
  f(copy);
  return copy;
}

describe('Appendix B version rule', () => {
  const v1 = contract(BASE_SCHEMA);
  const cases: [string, string, SchemaContract][] = [
    ['same contract', 'none', contract(structuredClone(BASE_SCHEMA))],
    ['description changed', 'patch', contract(BASE_SCHEMA, { description: 'Read one file' })],
    ['title added', 'patch', contract(BASE_SCHEMA, { tool: { title: 'Read file' } })],
    [
      'annotations changed',
      'patch',
      contract(BASE_SCHEMA, { tool: { annotations: { readOnlyHint: true } } }),
    ],
    [
      'property description changed',
      'patch',
      contract(
        mutate((s) => {
          s.properties.path = { type: 'string', description: 'Path' };
        }),
      ),
    ],
    [
      'properties reordered',
      'patch',
      contract(
        mutate((s) => {
          s.properties = {
            limit: s.properties.limit as JsonObject,
            path: s.properties.path as JsonObject,
            encoding: s.properties.encoding as JsonObject,
          };
        }),
      ),
    ],
    [
      'optional property added',
      'minor',
      contract(
        mutate((s) => {
          s.properties.offset = { type: 'integer' };
        }),
      ),
    ],
    [
      'enum widened',
      'minor',
      contract(
        mutate((s) => {
          s.properties.encoding = { type: 'string', enum: ['utf-8', 'base64', 'hex'] };
        }),
      ),
    ],
    [
      'requirement dropped',
      'minor',
      contract(
        mutate((s) => {
          s.required = [];
        }),
      ),
    ],
    [
      'type widened integer → number',
      'minor',
      contract(
        mutate((s) => {
          (s.properties.limit as JsonObject).type = 'number';
        }),
      ),
    ],
    [
      'bound loosened',
      'minor',
      contract(
        mutate((s) => {
          (s.properties.limit as JsonObject).maximum = 1000;
        }),
      ),
    ],
    [
      'outputSchema added (response only)',
      'minor',
      contract(BASE_SCHEMA, { tool: { outputSchema: { type: 'object' } } }),
    ],
    [
      'required property added',
      'major',
      contract(
        mutate((s) => {
          s.properties.mode = { type: 'string' };
          s.required.push('mode');
        }),
      ),
    ],
    [
      'existing property made required',
      'major',
      contract(
        mutate((s) => {
          s.required.push('limit');
        }),
      ),
    ],
    [
      'property removed',
      'major',
      contract(
        mutate((s) => {
          delete s.properties.encoding;
        }),
      ),
    ],
    [
      'type changed',
      'major',
      contract(
        mutate((s) => {
          (s.properties.limit as JsonObject).type = 'string';
        }),
      ),
    ],
    [
      'enum narrowed',
      'major',
      contract(
        mutate((s) => {
          s.properties.encoding = { type: 'string', enum: ['utf-8'] };
        }),
      ),
    ],
    [
      'additionalProperties tightened',
      'major',
      contract(
        mutate((s) => {
          s.additionalProperties = false;
        }),
      ),
    ],
    [
      'bound tightened',
      'major',
      contract(
        mutate((s) => {
          (s.properties.limit as JsonObject).maximum = 10;
        }),
      ),
    ],
    [
      'pattern added',
      'major',
      contract(
        mutate((s) => {
          (s.properties.path as JsonObject).pattern = '^/';
        }),
      ),
    ],
    [
      'composition changed (cannot prove harmless)',
      'major',
      contract(
        mutate((s) => {
          s.oneOf = [{ required: ['path'] }, { required: ['limit'] }];
        }),
      ),
    ],
    [
      'execution changed',
      'major',
      contract(BASE_SCHEMA, { tool: { execution: { taskSupport: 'required' } } }),
    ],
  ];
  it.each(cases)('%s → %s', (_name, bump, next) => {
    const change = compareContracts(v1, next);
    expect(change.bump, change.reasons.join('\n')).toBe(bump);
    expect(nextVersion(v1, next, '1.4.2')).toBe(bumpVersion('1.4.2', change.bump as 'none'));
  });
  it('a new contract is 1.0.0; bumps reset the lower parts', () => {
    expect(nextVersion(undefined, v1)).toBe('1.0.0');
    expect(bumpVersion('1.4.2', 'patch')).toBe('1.4.3');
    expect(bumpVersion('1.4.2', 'minor')).toBe('1.5.0');
    expect(bumpVersion('1.4.2', 'major')).toBe('2.0.0');
    expect(bumpVersion('1.4.2', 'none')).toBe('1.4.2');
    expect(() => bumpVersion('1.4', 'patch')).toThrow(TranslateError);
    expect(() => bumpVersion('01.4.2', 'patch')).toThrow(
      /expected a version MAJOR\.MINOR\.PATCH, got "01\.4\.2"/,
    );
  });
  it('a changed required capability is major (old grants may no longer cover it)', () => {
    const next = { ...v1, auth: { required_capability: 'com.acme.fs.admin' } };
    expect(compareContracts(v1, next).bump).toBe('major');
  });
  it('reasons name the pointer', () => {
    const change = compareContracts(
      v1,
      contract(
        mutate((s) => {
          delete s.properties.encoding;
        }),
      ),
    );
    expect(change.reasons).toContain('major: payload /properties/encoding: property removed');
  });
});

// ---- property: a bump below major never rejects a call the previous schema accepted ----

type Leaf = JsonObject;
const leafArb: fc.Arbitrary<Leaf> = fc.oneof<fc.Arbitrary<Leaf>[]>(
  fc.constant({ type: 'string' }),
  fc.integer({ min: 1, max: 6 }).map((n) => ({ type: 'string', maxLength: n })),
  fc.integer({ min: 0, max: 3 }).map((n) => ({ type: 'string', minLength: n })),
  fc.constant({ type: 'integer' }),
  fc.integer({ min: -5, max: 5 }).map((n) => ({ type: 'integer', minimum: n })),
  fc.integer({ min: -5, max: 5 }).map((n) => ({ type: 'number', maximum: n })),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: ['string', 'null'] }),
  fc
    .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 4 })
    .map((e) => ({ enum: e })),
  fc.integer({ min: 0, max: 3 }).map((n) => ({ type: 'array', items: { type: 'string' }, maxItems: n })),
  fc.constant({ description: 'anything' }),
);
const NAMES = ['a', 'b', 'c', 'd', 'e'];
const schemaArb: fc.Arbitrary<JsonObject> = fc
  .record({
    props: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 5 }),
    leaves: fc.array(leafArb, { minLength: 5, maxLength: 5 }),
    requiredMask: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
    closed: fc.boolean(),
  })
  .map(({ props, leaves, requiredMask, closed }) => {
    const properties: JsonObject = {};
    props.forEach((p, i) => {
      properties[p] = leaves[i] as Leaf;
    });
    const s: JsonObject = { type: 'object', properties, required: props.filter((_, i) => requiredMask[i]) };
    if (closed) s.additionalProperties = false;
    return s;
  });

type Mutation = (s: JsonObject, r: { name: string; leaf: Leaf; flag: boolean }) => void;
const MUTATIONS: Mutation[] = [
  (s, r) => {
    (s.properties as JsonObject)[r.name] = r.leaf;
  }, // add or replace a property
  (s, r) => {
    delete (s.properties as JsonObject)[r.name];
    s.required = (s.required as string[]).filter((x) => x !== r.name);
  },
  (s, r) => {
    if (Object.hasOwn(s.properties as JsonObject, r.name) && !(s.required as string[]).includes(r.name))
      (s.required as string[]).push(r.name);
  },
  (s, r) => {
    s.required = (s.required as string[]).filter((x) => x !== r.name);
  },
  (s, r) => {
    if (r.flag) s.additionalProperties = false;
    else delete s.additionalProperties;
  },
  (s, r) => {
    const p = (s.properties as JsonObject)[r.name] as JsonObject | undefined;
    if (p && typeof p.maxLength === 'number') p.maxLength += r.flag ? 1 : -1;
  },
  (s, r) => {
    const p = (s.properties as JsonObject)[r.name] as JsonObject | undefined;
    if (p && Array.isArray(p.enum)) p.enum = r.flag ? [...p.enum, 'z'] : p.enum.slice(1);
  },
  (s, r) => {
    const p = (s.properties as JsonObject)[r.name] as JsonObject | undefined;
    if (p) p.description = r.flag ? 'changed' : 'other';
  },
  (s, r) => {
    const p = (s.properties as JsonObject)[r.name] as JsonObject | undefined;
    if (p && p.type === 'integer') p.type = r.flag ? 'number' : 'string';
  },
];

/** A value for a leaf schema, chosen by `pick` (so fast-check controls it). */
function valueFor(_leaf: Leaf, pick: number): unknown {
  const pool: unknown[] = [
    '',
    'a',
    'b',
    'abcdefgh',
    0,
    -3,
    4,
    2.5,
    true,
    false,
    null,
    [],
    ['x'],
    ['x', 'y', 'z', 'w'],
    'c',
    'd',
    'z',
  ];
  return pool[pick % pool.length];
}

describe('version rule soundness (property)', () => {
  const compiler = new SchemaCompiler();
  it('whenever the bump is not major, every call the old payload accepted is still accepted', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        schemaArb,
        fc.array(
          fc.record({
            m: fc.integer({ min: 0, max: MUTATIONS.length - 1 }),
            name: fc.constantFrom(...NAMES),
            leaf: leafArb,
            flag: fc.boolean(),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        fc.array(fc.array(fc.nat(), { minLength: 5, maxLength: 5 }), { minLength: 10, maxLength: 10 }),
        (old, steps, picks) => {
          const next = structuredClone(old);
          for (const step of steps) (MUTATIONS[step.m] as Mutation)(next, step);
          const change = compareSchemas(old, next);
          if (change.bump === 'major') return;
          const a = compiler.compile(old);
          const b = compiler.compile(next);
          if (!a.ok || !b.ok) throw new Error('generated schema does not compile');
          const props = Object.keys(old.properties as JsonObject);
          for (const row of picks) {
            // instances use declared properties only (undeclared ones are not part of the contract)
            const instance: Record<string, unknown> = {};
            props.forEach((p, i) => {
              if ((row[i] as number) % 4 !== 0)
                instance[p] = valueFor((old.properties as JsonObject)[p] as Leaf, row[i] as number);
            });
            if (!a.validate(instance)) continue;
            checked++;
            expect(
              b.validate(instance),
              `${change.bump} (${change.reasons.join('; ')}) rejects ${JSON.stringify(instance)}\nold ${JSON.stringify(old)}\nnew ${JSON.stringify(next)}`,
            ).toBe(true);
          }
        },
      ),
      { numRuns: 400, seed: 2026 },
    );
    expect(checked).toBeGreaterThan(100);
  });
  it('an unchanged schema is never bumped; an annotation-only change is at most a patch', () => {
    fc.assert(
      fc.property(schemaArb, (s) => {
        expect(compareSchemas(s, structuredClone(s)).bump).toBe('none');
        const annotated = structuredClone(s);
        annotated.description = 'new words';
        expect(compareSchemas(s, annotated).bump).toBe('patch');
      }),
      { numRuns: 200, seed: 9 },
    );
  });
});
