// An adapter command that behaves as `npx <package>` does on SIGTERM: it exits at once and the
// adapter it started (through a shell, which the signal does not reach) keeps running. The
// "adapter" logs {"event":"ready","pid":…} on the stderr it shares with the wrapper and takes a
// moment to stop on SIGTERM.
import { spawn } from 'node:child_process';

const adapter = `
process.on('SIGTERM', () => setTimeout(() => process.exit(0), 2000));
setInterval(() => {}, 1000);
process.stderr.write(JSON.stringify({ event: 'ready', pid: process.pid }) + '\\n');
`;
spawn(process.execPath, ['-e', adapter], { stdio: ['ignore', 'ignore', 'inherit'] });
process.on('SIGTERM', () => process.exit(0));
