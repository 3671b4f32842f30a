// Preloaded (`node --import`) into a process the command's bench runs. With `--expose-gc`, every
// 20 ms a full collection, then the live heap read, so the peak is what the process keeps, not how
// long V8 let garbage pile up before collecting; without it, no sampling at all. On exit, the
// largest live heap read (0 without `--expose-gc`) and the peak resident memory, in kilobytes, as
// the last line of stderr.
import { writeSync } from 'node:fs';

let peakLive = 0;
const sample = () => {
  if (!globalThis.gc) return;
  globalThis.gc();
  peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
};
setInterval(sample, 20).unref();
process.on('exit', () => {
  sample();
  writeSync(2, `peak-live-kb ${Math.round(peakLive / 1024)} peak-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
