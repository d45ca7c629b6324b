/**
 * `@xprotocol/endpoint`: write a native XProtocol endpoint in a few lines — tools with JSON Schemas
 * and async handlers, served by the same pipeline as the adapter's endpoint. Named re-exports only.
 * @module
 */
export {
  type EndpointAccess,
  type RunningEndpoint,
  type ServeEndpointOptions,
  serveEndpoint,
} from './serve-endpoint.js';
export type { StandardJsonSchema } from './standard-json-schema.js';
export {
  type JsonSchemaObject,
  type NativeTool,
  type ToolCallContext,
  ToolDefinitionError,
} from './tool-definition.js';
