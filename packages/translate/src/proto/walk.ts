/**
 * The state of one JSON Schema → proto3 translation that its parts share: the refusals so far and
 * the files to import, the message new types go into, and what a JSON value becomes in a field.
 * @module
 */
import type { DescriptorProto, FieldDescriptorProto_Type as T } from '@bufbuild/protobuf/wkt';
import type { FieldRules } from '@bufbuild/protovalidate/gen/buf/validate/validate_pb.js';
import type { JsonValue } from '../json.js';
import type { NameScope } from './proto-names.js';

/** Why a part of the schema was not translated, and where (a JSON pointer from the schema root). */
export interface ProtoRefusal {
  pointer: string;
  reason: string;
}

/** What a JSON value becomes in a field (before repeated/map wrapping). */
export type Shape =
  | { kind: 'scalar'; type: T; rules: FieldRules['type'] | undefined }
  | { kind: 'enum'; typeName: string }
  | { kind: 'message'; typeName: string }
  | { kind: 'repeated'; item: Shape; rules: Record<string, unknown> }
  | { kind: 'map'; value: Shape; keyRules: FieldRules['type'] | undefined };

/** The message that new nested types and fields go into. */
export interface Scope {
  /** Full name of the message that will hold nested types (`.pkg.Msg`). */
  readonly fullName: string;
  readonly message: DescriptorProto;
  readonly names: NameScope;
}

/** The walk's state: the refusals so far, the files the descriptor needs, the comments to keep. */
export class Walk {
  readonly refusals: ProtoRefusal[] = [];
  readonly imports = new Set<string>();
  /** A message's or field's leading comment (its schema's title and description), by descriptor object. */
  readonly comments = new Map<object, string>();

  refuse(pointer: string, reason: string): undefined {
    this.refusals.push({ pointer: pointer === '' ? '/' : pointer, reason });
    return undefined;
  }
}

/** The two steps of the translation the wrapper messages are built from (passed in: no import circle). */
export interface ShapeBuilder {
  /** What one JSON schema becomes; undefined when refused. */
  shape(walk: Walk, scope: Scope, schema: JsonValue, pointer: string, hint: string): Shape | undefined;
  /** The field of a shape, with its rules (not required, no JSON marks). */
  field(
    walk: Walk,
    scope: Scope,
    shape: Shape,
    name: string,
    jsonName: string,
    number: number,
  ): import('@bufbuild/protobuf/wkt').FieldDescriptorProto;
}
