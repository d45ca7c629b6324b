/**
 * A schema's `title` and `description` as leading comments of the proto3 binding: kept in the
 * descriptor's `SourceCodeInfo` (path and leading comment; the span is filled in once the `.proto`
 * text is written) and written as `//` lines above the message or field. They are for people
 * reading the `.proto`: the way back to JSON Schema does not read them (docs/translation.md §8).
 * @module
 */
import { create } from '@bufbuild/protobuf';
import {
  type DescriptorProto,
  type FileDescriptorProto,
  type SourceCodeInfo,
  SourceCodeInfo_LocationSchema,
  SourceCodeInfoSchema,
} from '@bufbuild/protobuf/wkt';
import { isJsonObject, type JsonValue } from '../json.js';

/** Field numbers of `FileDescriptorProto.message_type`, `DescriptorProto.field` and `.nested_type`. */
const MESSAGE_TYPE = 4;
const FIELD = 2;
const NESTED_TYPE = 3;

/**
 * The leading comment of a schema: its title, a blank line, its description (either alone), in
 * protoc's spelling (each line after a space, ending in a newline); undefined when it has neither.
 */
export function commentOf(schema: JsonValue | undefined): string | undefined {
  if (!isJsonObject(schema)) return undefined;
  const parts = [schema.title, schema.description]
    .filter((t): t is string => typeof t === 'string')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (parts.length === 0) return undefined;
  const lines = parts
    .join('\n\n')
    // control characters other than the line break would end or garble a `//` line
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f\u2028\u2029]/g, ' ')
    .split('\n')
    .map((l) => l.trimEnd());
  return `${lines.map((l) => (l === '' ? '' : ` ${l}`)).join('\n')}\n`;
}

/**
 * The `SourceCodeInfo` of a file whose messages and fields have comments (looked up by object), in
 * the order of the descriptor; undefined when none has one.
 */
export function sourceCodeInfoOf(
  file: FileDescriptorProto,
  comments: ReadonlyMap<object, string>,
): SourceCodeInfo | undefined {
  const info = create(SourceCodeInfoSchema);
  const add = (path: number[], c: string | undefined) => {
    if (c !== undefined)
      info.location.push(create(SourceCodeInfo_LocationSchema, { path, leadingComments: c }));
  };
  const visit = (m: DescriptorProto, path: number[]) => {
    add(path, comments.get(m));
    for (const [i, f] of m.field.entries()) add(paths.field(path, i), comments.get(f));
    for (const [i, n] of m.nestedType.entries()) visit(n, paths.nested(path, i));
  };
  for (const [i, m] of file.messageType.entries()) visit(m, paths.top(i));
  return info.location.length > 0 ? info : undefined;
}

/** The leading comments of a file by path (`4,0,2,3`), for the `.proto` writer. */
export function commentsByPath(file: FileDescriptorProto): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of file.sourceCodeInfo?.location ?? [])
    if (l.leadingComments !== '') out.set(l.path.join(','), l.leadingComments);
  return out;
}

/** The path of a message's field and nested message, and of a top-level message. */
export const paths = {
  top: (i: number): number[] => [MESSAGE_TYPE, i],
  field: (message: readonly number[], i: number): number[] => [...message, FIELD, i],
  nested: (message: readonly number[], i: number): number[] => [...message, NESTED_TYPE, i],
};
