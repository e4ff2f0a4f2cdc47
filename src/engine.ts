import { setFlagsFromString } from 'node:v8';

/**
 * How V8 runs WebAssembly in a roleflow process (the CLI, the Action) that talks HTTP: with its
 * baseline compiler only. undici parses HTTP with a WebAssembly module, and V8 optimises such a module on a
 * background thread that the process then waits for when it exits: ~100 ms after its last
 * output, for a command that sent a handful of requests (bench: "exit after last output"). The
 * baseline code parses the few headers of a tenant's answers as well; bodies are not parsed by it.
 * Called as a client is made, before its first request compiles the module, and no earlier: Node
 * compiles a built-in module loaded after a change of V8's flags without its code cache (http2,
 * tls and the like took three times as long), and by then the client has loaded those it uses.
 */
export function runWasmWithBaselineCompiler(): void {
  setFlagsFromString('--liftoff-only');
}
