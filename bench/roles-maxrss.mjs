// Preloaded with `node --import` into a process under test: at exit it writes the process's peak
// resident set size (getrusage ru_maxrss, the figure `/usr/bin/time -v` reports, in bytes) to the
// file named by BENCH_MAXRSS_FILE. It adds nothing else to the process, so the CLI and the floor
// are measured alike.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_MAXRSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
