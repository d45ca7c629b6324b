// The gate's control: preloaded into one adapter (NODE_OPTIONS=--require …) to slow it down on
// purpose. Every HTTP request the process serves first spins for BENCH_SLOWDOWN_MS milliseconds
// of CPU, as a regression in the request path would. The gate must fail this adapter's ratio.
const http = require('node:http');

const spinMs = Number(process.env.BENCH_SLOWDOWN_MS ?? '0');
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (name, ...args) {
  if (name === 'request') {
    const until = performance.now() + spinMs;
    while (performance.now() < until) {
      // spin: CPU time, like slower code
    }
  }
  return emit.call(this, name, ...args);
};
