/** The embedded tenant: a faithful local emulator of the service interface (see README.md here). */
export { startEmulator, type EmulatorOptions, type RunningEmulator } from './start.js';
export { loadFlowsConfig, type FlowConfig, type FlowsConfig, type StepConfig } from './flows-config.js';
export { flowsConfigSchema } from './flows-config.schema.js';
export type { RequestRecord } from './http-kit.js';
export type { RequestLine } from './http-server.js';
