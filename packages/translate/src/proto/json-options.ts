/**
 * The custom options the proto3 binding writes besides protovalidate's rules: what a protobuf
 * descriptor cannot say about the JSON it stands for (an enum value's JSON string, a field that
 * may be JSON `null`, an array that must be present even when empty, the field that holds an open
 * object's other members, a message that stands for its one set member's value). They live in one small file, `xprotocol/mcp/v1/json.proto`, that every
 * generated file imports. Numbers are in the 50000–99999 range protobuf leaves to organisations.
 * @module
 */
import {
  create,
  createFileRegistry,
  type DescMessage,
  type FileRegistry,
  getExtension,
  hasExtension,
  type Message,
  setExtension,
} from '@bufbuild/protobuf';
import type { GenExtension } from '@bufbuild/protobuf/codegenv2';
import {
  type EnumValueOptions,
  type FieldOptions,
  type FileDescriptorProto,
  FileDescriptorProtoSchema,
  file_google_protobuf_descriptor,
  FieldDescriptorProto_Label as Label,
  type MessageOptions,
  FieldDescriptorProto_Type as T,
} from '@bufbuild/protobuf/wkt';

/** The file name other generated files import. */
export const JSON_OPTIONS_FILE = 'xprotocol/mcp/v1/json.proto';
/**
 * The field number of the three extensions (`(xprotocol.mcp.v1.json)`, `(xprotocol.mcp.v1.json_value)`
 * and `(xprotocol.mcp.v1.json_wrapper)`), each on its own options message.
 */
export const JSON_OPTION_NUMBER = 52001;

/** What `(xprotocol.mcp.v1.json)` says about a field. */
export interface JsonFieldFacts {
  /** The JSON value may be `null` (read as absent). */
  nullable: boolean;
  /** The field holds the object's members not declared as properties. */
  rest: boolean;
  /** A repeated or map field whose member must be present in the JSON (empty allowed). */
  present: boolean;
}

/** The descriptor of `xprotocol/mcp/v1/json.proto`, built once. */
export const jsonOptionsFile: FileDescriptorProto = create(FileDescriptorProtoSchema, {
  name: JSON_OPTIONS_FILE,
  package: 'xprotocol.mcp.v1',
  dependency: ['google/protobuf/descriptor.proto'],
  syntax: 'proto3',
  messageType: [
    {
      name: 'JsonField',
      field: ['nullable', 'rest', 'present'].map((name, i) => ({
        name,
        number: i + 1,
        type: T.BOOL,
        label: Label.OPTIONAL,
        jsonName: name,
      })),
    },
  ],
  extension: [
    {
      name: 'json',
      number: JSON_OPTION_NUMBER,
      type: T.MESSAGE,
      typeName: '.xprotocol.mcp.v1.JsonField',
      label: Label.OPTIONAL,
      extendee: '.google.protobuf.FieldOptions',
      jsonName: 'json',
    },
    {
      name: 'json_value',
      number: JSON_OPTION_NUMBER,
      type: T.STRING,
      label: Label.OPTIONAL,
      extendee: '.google.protobuf.EnumValueOptions',
      jsonName: 'jsonValue',
    },
    {
      name: 'json_wrapper',
      number: JSON_OPTION_NUMBER,
      type: T.BOOL,
      label: Label.OPTIONAL,
      extendee: '.google.protobuf.MessageOptions',
      jsonName: 'jsonWrapper',
    },
  ],
});

/** A registry holding json.proto (and descriptor.proto, which it extends). */
export const jsonOptionsRegistry: FileRegistry = createFileRegistry(jsonOptionsFile, (name) =>
  name === 'google/protobuf/descriptor.proto' ? file_google_protobuf_descriptor : undefined,
);

const jsonFieldMessage = jsonOptionsRegistry.getMessage('xprotocol.mcp.v1.JsonField') as DescMessage;
type JsonFieldMessage = Message & JsonFieldFacts;
const jsonFieldExtension = jsonOptionsRegistry.getExtension(
  'xprotocol.mcp.v1.json',
) as unknown as GenExtension<FieldOptions, JsonFieldMessage>;
const jsonValueExtension = jsonOptionsRegistry.getExtension(
  'xprotocol.mcp.v1.json_value',
) as unknown as GenExtension<EnumValueOptions, string>;
const jsonWrapperExtension = jsonOptionsRegistry.getExtension(
  'xprotocol.mcp.v1.json_wrapper',
) as unknown as GenExtension<MessageOptions, boolean>;

/** Writes the facts that are true onto a field's options (nothing when none is). */
export function setJsonFieldFacts(options: FieldOptions, facts: Partial<JsonFieldFacts>): void {
  if (!facts.nullable && !facts.rest && !facts.present) return;
  const value = create(jsonFieldMessage, {
    nullable: facts.nullable === true,
    rest: facts.rest === true,
    present: facts.present === true,
  });
  setExtension(options, jsonFieldExtension, value as JsonFieldMessage);
}

/** Reads `(xprotocol.mcp.v1.json)` from a field's options; all false when absent. */
export function jsonFieldFacts(options: FieldOptions | undefined): JsonFieldFacts {
  if (options === undefined || !hasExtension(options, jsonFieldExtension))
    return { nullable: false, rest: false, present: false };
  const v = getExtension(options, jsonFieldExtension);
  return { nullable: v.nullable, rest: v.rest, present: v.present };
}

/** Writes the JSON string an enum value stands for. */
export function setJsonValue(options: EnumValueOptions, json: string): void {
  setExtension(options, jsonValueExtension, json);
}

/** The JSON string an enum value stands for, or undefined (the `_UNSPECIFIED` zero value). */
export function jsonValueOf(options: EnumValueOptions | undefined): string | undefined {
  if (options === undefined || !hasExtension(options, jsonValueExtension)) return undefined;
  return getExtension(options, jsonValueExtension);
}

/**
 * Marks a message as a wrapper: its JSON is the value of its one set member (a union's oneof), or
 * of its one repeated or map field (an array of arrays, a map of arrays), not an object.
 */
export function setJsonWrapper(options: MessageOptions): void {
  setExtension(options, jsonWrapperExtension, true);
}

/** Whether a message is a wrapper (see {@link setJsonWrapper}). */
export function isJsonWrapper(options: MessageOptions | undefined): boolean {
  return (
    options !== undefined &&
    hasExtension(options, jsonWrapperExtension) &&
    getExtension(options, jsonWrapperExtension)
  );
}
