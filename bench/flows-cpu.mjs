// Preloaded with `node --import` into a process under test by flows.bench.mjs: at exit it writes the
// process's own CPU time ({user, system} in µs) to the file named by BENCH_CPU_FILE. Wall time on a
// shared machine moves with everyone else's load; CPU time says what the process itself spent.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_CPU_FILE;
if (file) process.on('exit', () => writeFileSync(file, JSON.stringify(process.cpuUsage())));
