/**
 * `@xprotocol/translate/proto`: the proto3 binding of tool schemas (docs/translation.md §8).
 * A subpath of its own so that the root entry never loads the protobuf runtime.
 * @module
 */
export {
  JSON_OPTION_NUMBER,
  JSON_OPTIONS_FILE,
  type JsonFieldFacts,
  jsonOptionsFile,
} from './proto/json-options.js';
export {
  argumentsToMessage,
  decodeArguments,
  encodeArguments,
  messageToArguments,
} from './proto/proto-codec.js';
export { protoTextOf } from './proto/proto-text.js';
export { protoToJsonSchema } from './proto/proto-to-schema.js';
export {
  type JsonSchemaToProtoOptions,
  jsonSchemaToProto,
  type ProtoRefusal,
  type ProtoTranslation,
} from './proto/schema-to-proto.js';
