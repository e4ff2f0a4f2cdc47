// undici's Agent and EnvHttpProxyAgent without the rest of its index: the index also loads fetch,
// WebSocket, cookies, caches, interceptors and mocks, whose set-up makes Node load its own copy of
// undici as well — most of a tenant command's start, for code roleflow never calls. The one thing
// the index does that dispatchers need is below, as the index does it: its request API (`request`,
// and `connect`, which a proxy agent uses to open its tunnel) on undici's Dispatcher.
import api from 'undici/lib/api/index.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';

Object.assign(Dispatcher.prototype, api);

export { default as Agent } from 'undici/lib/dispatcher/agent.js';
export { default as EnvHttpProxyAgent } from 'undici/lib/dispatcher/env-http-proxy-agent.js';
