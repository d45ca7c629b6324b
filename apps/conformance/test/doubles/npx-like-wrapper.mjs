// An adapter command that behaves as `npx <package>` does on SIGTERM: it passes the signal to the
// adapter it started and exits at once, while the adapter takes a moment to stop. The "adapter"
// logs {"event":"ready","pid":…} on the stderr it shares with the wrapper.
import { spawn } from 'node:child_process';

const adapter = `
process.on('SIGTERM', () => setTimeout(() => process.exit(0), 2000));
setInterval(() => {}, 1000);
process.stderr.write(JSON.stringify({ event: 'ready', pid: process.pid }) + '\\n');
`;
const child = spawn(process.execPath, ['-e', adapter], { stdio: ['ignore', 'ignore', 'inherit'] });
process.on('SIGTERM', () => {
  child.kill('SIGTERM');
  process.exit(0);
});
