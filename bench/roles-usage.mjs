// Preloaded with `node --import` into a process under test: at exit it writes, as JSON, the
// process's peak resident set size (getrusage ru_maxrss, the figure `/usr/bin/time -v` reports, in
// bytes) and its CPU time (user + system, every thread of it, in ms) to the file named by
// BENCH_USAGE_FILE. It adds nothing else to the process, so the CLI and the floor are measured alike.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRss: usage.maxRSS * 1024, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }));
  });
}
