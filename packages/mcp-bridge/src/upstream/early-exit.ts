/**
 * What to say when a stdio child exits before the MCP handshake, the way a misspelt `npx -y
 * <package>` does: how it ended and the last lines it wrote on stderr, and whether another start
 * can help. The message's first line says what happened; each stderr line follows on a line of
 * its own, as `  stderr: <line>`, so a log line, a CLI error and the `ready` report can show the
 * first line alone. See docs/architecture.md, "Upstream supervision".
 * @module
 */

/** The prefix of each stderr line in a message (after a newline). */
export const STDERR_LINE_PREFIX = '  stderr: ';

/**
 * `it exited with exit code 1 before the MCP handshake`, then the stderr lines (see the module
 * comment); `, writing nothing on stderr` when there were none.
 */
export function _describeEarlyExit(how: string, stderr: readonly string[]): string {
  const head = `it exited with ${how} before the MCP handshake`;
  if (stderr.length === 0) return `${head}, writing nothing on stderr`;
  return `${head}${_stderrBlock(stderr)}`;
}

/** The stderr lines as they follow a message's first line: `\n  stderr: <line>` each. */
export function _stderrBlock(stderr: readonly string[]): string {
  return stderr.map((line) => `\n${STDERR_LINE_PREFIX}${line}`).join('');
}

/**
 * Why no later start can succeed, from what the child wrote on stderr, or `undefined`: npm said
 * the package (or the version asked for) does not exist in the registry (`npm error code E404`
 * or `ETARGET`; `npm ERR! code …` before npm 10). Only a change to the command helps (a private
 * package also answers 404 until npm is logged in: the message says so).
 */
export function _unrecoverableExit(stderr: readonly string[]): string | undefined {
  for (const line of stderr) {
    const code = /^npm (?:error|ERR!) code (E404|ETARGET)\b/.exec(line)?.[1];
    if (code === 'E404') {
      return 'npm cannot find the package: it is not in the npm registry (npm error code E404); check the package name in the command (a private package also needs `npm login`)';
    }
    if (code === 'ETARGET') {
      return 'npm cannot find the version asked for: no version of the package matches it (npm error code ETARGET); check the version in the command';
    }
  }
  return undefined;
}
