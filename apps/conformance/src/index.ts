/**
 * `@xprotocol/conformance` — the XProtocol MCP Adapter conformance suite as a library: run it
 * against any adapter from code, or use the `xprotocol-conformance` executable.
 * @module
 */
export type { Check, CheckResult, Failure } from './check.js';
export { type CliIo, main, USAGE } from './cli.js';
export { type Profile, profileOf } from './profile.js';
export {
  RELAY_CHECKS,
  type RelayCheck,
  type RelayCheckResult,
  type RelayReport,
  runRelaySuite,
  selectRelayChecks,
} from './relay-suite.js';
export { formatCheck, formatJunit, formatSummary } from './report.js';
export {
  ALL_CHECKS,
  CHECKS,
  checksOf,
  MUSTS,
  type MustVerdict,
  NATIVE_CHECKS,
  type OptionalVerdict,
  runSuite,
  type SuiteReport,
  selectChecks,
} from './suite.js';
export { type SuiteConfigInput, suiteConfig } from './suite-config.js';
export { Target, type TargetOptions, testServerCommand } from './target.js';
export { TEST_TOOLS, type TestTool } from './test-tools.js';
