/**
 * The wrapper messages of the proto3 binding (docs/translation.md §8): what protobuf cannot nest
 * directly gets a message of its own, marked `(xprotocol.mcp.v1.json_wrapper)` so that its JSON is
 * the value it wraps, not an object. A union whose branches differ in JSON type becomes a message
 * with one `oneof` (one member per type, `google.protobuf.NullValue` for `null`); an array of
 * arrays, a map of arrays or a union member that is an array or a map gets a message with that one
 * repeated or map field.
 * @module
 */
import { create, setExtension } from '@bufbuild/protobuf';
import {
  DescriptorProtoSchema,
  MessageOptionsSchema,
  OneofDescriptorProtoSchema,
  OneofOptionsSchema,
} from '@bufbuild/protobuf/wkt';
import {
  OneofRulesSchema,
  oneof as oneofRulesExtension,
} from '@bufbuild/protovalidate/gen/buf/validate/validate_pb.js';
import type { JsonObject } from '../json.js';
import { JSON_OPTIONS_FILE, setJsonWrapper } from './json-options.js';
import { NameScope, pascalCaseOf } from './proto-names.js';
import { STRUCT_FILE, WELL_KNOWN } from './proto-types.js';
import { unionBranches } from './schema-keywords.js';
import type { Scope, Shape, ShapeBuilder, Walk } from './walk.js';

/** The name of a union wrapper's oneof, and the name of its member of each JSON type. */
export const UNION_ONEOF = 'value';
const MEMBER_SUFFIX = '_value';

/**
 * A union (type list, anyOf, oneOf) → a wrapper message with one oneof member per JSON type,
 * numbered in a fixed type order; refused when two branches accept the same JSON type.
 */
export function unionShape(
  build: ShapeBuilder,
  walk: Walk,
  scope: Scope,
  schema: JsonObject,
  pointer: string,
  hint: string,
): Shape | undefined {
  const split = unionBranches(schema, pointer);
  if (!split.ok) return walk.refuse(split.pointer, split.reason);
  const inner = _wrapperScope(walk, scope, hint);
  inner.message.oneofDecl.push(
    create(OneofDescriptorProtoSchema, { name: UNION_ONEOF, options: create(OneofOptionsSchema) }),
  );
  // a wrapper with no member set is no JSON value at all
  setExtension(
    inner.message.oneofDecl[0]!.options!,
    oneofRulesExtension,
    create(OneofRulesSchema, { required: true }),
  );
  walk.imports.add('buf/validate/validate.proto');
  for (const [i, branch] of split.branches.entries()) {
    const name = inner.names.unique(`${branch.type}${MEMBER_SUFFIX}`);
    let shape: Shape | undefined;
    if (branch.type === 'null') {
      walk.imports.add(STRUCT_FILE);
      shape = { kind: 'enum', typeName: `.${WELL_KNOWN.nullValue}` };
    } else shape = build.shape(walk, inner, branch.schema, branch.pointer, branch.type);
    if (shape === undefined) return undefined;
    // a oneof member cannot be repeated or a map: those get a wrapper of their own
    if (shape.kind === 'repeated' || shape.kind === 'map')
      shape = listWrapperShape(build, walk, inner, shape, branch.type);
    const f = build.field(walk, inner, shape, name, _camel(name), i + 1);
    f.oneofIndex = 0;
    inner.message.field.push(f);
  }
  return { kind: 'message', typeName: inner.fullName };
}

/**
 * A repeated or map shape where protobuf cannot put one (an array's element, a map's value, a
 * oneof member) → a wrapper message holding it as its one field.
 */
export function listWrapperShape(
  build: ShapeBuilder,
  walk: Walk,
  scope: Scope,
  shape: Shape,
  hint: string,
): Shape {
  const inner = _wrapperScope(walk, scope, `${hint}_${shape.kind === 'map' ? 'map' : 'list'}`);
  const name = shape.kind === 'map' ? 'members' : 'items';
  inner.message.field.push(build.field(walk, inner, shape, name, name, 1));
  return { kind: 'message', typeName: inner.fullName };
}

/** A new wrapper message nested in `scope`'s message, named after `hint`. */
function _wrapperScope(walk: Walk, scope: Scope, hint: string): Scope {
  const name = scope.names.unique(pascalCaseOf(hint), '');
  const message = create(DescriptorProtoSchema, { name, options: create(MessageOptionsSchema) });
  setJsonWrapper(message.options!);
  walk.imports.add(JSON_OPTIONS_FILE);
  scope.message.nestedType.push(message);
  return { fullName: `${scope.fullName}.${name}`, message, names: new NameScope() };
}

function _camel(name: string): string {
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}
