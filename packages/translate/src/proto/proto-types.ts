/**
 * The protobuf types the proto3 binding uses, in one place for both directions and the codec: the
 * scalar types (their `.proto` keyword and the JSON Schema type they stand for) and the well-known
 * messages and enum from `google/protobuf/struct.proto`.
 * @module
 */
import { FieldDescriptorProto_Type as T } from '@bufbuild/protobuf/wkt';

/** A scalar type the binding writes: its `.proto` keyword and its JSON Schema type. */
export const SCALARS: ReadonlyMap<T, { readonly proto: string; readonly json: string }> = new Map([
  [T.STRING, { proto: 'string', json: 'string' }],
  [T.DOUBLE, { proto: 'double', json: 'number' }],
  [T.INT32, { proto: 'int32', json: 'integer' }],
  [T.INT64, { proto: 'int64', json: 'integer' }],
  [T.BOOL, { proto: 'bool', json: 'boolean' }],
]);

/** The file that declares the well-known types below. */
export const STRUCT_FILE = 'google/protobuf/struct.proto';

/** The well-known types the binding uses, by full name (no leading dot). */
export const WELL_KNOWN = {
  /** Any JSON value: `{}` or `true`. */
  value: 'google.protobuf.Value',
  /** Any JSON object: `{type: "object"}` with nothing else. */
  struct: 'google.protobuf.Struct',
  /** JSON `null`, the `null` member of a union. */
  nullValue: 'google.protobuf.NullValue',
} as const;

/** The well-known messages whose protobuf JSON is the tool's JSON as it is (no mapping applies). */
export const OPEN_MESSAGES: ReadonlySet<string> = new Set([WELL_KNOWN.value, WELL_KNOWN.struct]);
