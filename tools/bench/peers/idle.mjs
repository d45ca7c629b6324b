// The memory suite's floor: a Node process that does nothing (prints "idle" once it runs).
setInterval(() => {}, 1 << 30);
console.log('idle');
process.on('SIGTERM', () => process.exit(0));
