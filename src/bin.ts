#!/usr/bin/env node
// Node 22.1 and later can keep the code it compiled for roleflow's modules between runs, which
// saves much of the start-up; older versions have no such function and compile as before. It must
// be turned on before the modules are loaded, hence the import that follows it.
import * as module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./process.js');
