/** A protobuf runtime registry holding one file made by jsonSchemaToProto and every file it imports. */
import { createFileRegistry, type FileRegistry } from '@bufbuild/protobuf';
import {
  type FileDescriptorProto,
  file_google_protobuf_descriptor,
  file_google_protobuf_struct,
} from '@bufbuild/protobuf/wkt';
import { file_buf_validate_validate } from '@bufbuild/protovalidate/gen/buf/validate/validate_pb.js';
import { jsonOptionsFile } from '../src/proto.js';

const wellKnown = new Map<string, unknown>([
  ['google/protobuf/struct.proto', file_google_protobuf_struct],
  ['google/protobuf/descriptor.proto', file_google_protobuf_descriptor],
  ['buf/validate/validate.proto', file_buf_validate_validate],
]);
const options = createFileRegistry(jsonOptionsFile, (n) => wellKnown.get(n) as never);

export function registryOf(file: FileDescriptorProto): FileRegistry {
  return createFileRegistry(file, (n) =>
    n === jsonOptionsFile.name ? options.getFile(n) : (wellKnown.get(n) as never),
  );
}
