// Shared pieces of the Roles-as-code benches (plan.bench.mjs, tenant-apply.bench.mjs): a tenant
// preloaded through the emulator's data file, role files on disk, and timed runs of the CLI or a
// floor script as processes with their peak RSS.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import { bin, roleFields, root, startServerChild, withEnv } from './lib.mjs';

const usageHook = pathToFileURL(fileURLToPath(new URL('./roles-usage.mjs', import.meta.url))).href;
const floorScript = fileURLToPath(new URL('./roles-floor.mjs', import.meta.url));
const applyFloorScript = fileURLToPath(new URL('./roles-apply-floor.mjs', import.meta.url));

/** roleFields(i) as edited in a working copy: one reworded sentence and one added line. */
export function changedFields(i) {
  const fields = roleFields(i);
  return {
    ...fields,
    content: fields.content.replace('politely and briefly', 'politely, briefly and in plain words') + '\nEscalate legal threats at once.\n',
  };
}

/**
 * The emulator's data file (src/emulator/store/data-file.ts: exactly the body of GET /admin/roles/get)
 * holding roleFields(0..count-1): writing it is far quicker than `count` creates.
 */
export function writeTenantData(file, count) {
  const now = new Date().toISOString();
  const roles = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), ...roleFields(i), created_at: now, last_updated: now }));
  writeFileSync(file, JSON.stringify(roles));
}

/** Role files `from`..`to - 1` (PRODUCT.md, "Role files") in `dir`, from `fieldsOf(i)`; files already there stay. */
export function writeRoleFiles(dir, from, to, fieldsOf) {
  mkdirSync(dir, { recursive: true });
  for (let i = from; i < to; i++) {
    const { name, description, content } = fieldsOf(i);
    // JSON strings are YAML double-quoted scalars; the final \n is the one line break not part of content.
    writeFileSync(join(dir, `${name}.md`), `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(description)}\n---\n${content}\n`);
  }
}

/**
 * The emulator in a child process (roles-serve.mjs), with `dataFile` preloaded when given, every
 * answer `latencyMs` late, and at most `ratePerSecond` requests a second when given.
 */
export function startTenant({ dataFile, latencyMs = 0, ratePerSecond } = {}) {
  return startServerChild('./roles-serve.mjs', [dataFile ?? '-', String(latencyMs), ratePerSecond === undefined ? '-' : String(ratePerSecond)]);
}

/**
 * Run `node [execArgv] dist/bin.js ...args` against the tenant, stdout into `stdoutFile`, with
 * `env` added to the environment (lib.mjs: withEnv). Returns the wall time to exit, the exit code,
 * the first stderr line and the process's peak RSS.
 */
export function runCli(args, { tenant, stdoutFile, execArgv = [], env = {} }) {
  return timedNode([...execArgv, bin, ...args, '--base-url', tenant.baseUrl, '--tenant', 'bench'], tenant.token, stdoutFile, env);
}

/** The plan floor (roles-floor.mjs): read the files, fetch and parse the list; `seen` is what it counted. */
export function runPlanFloor(dir, { tenant, stdoutFile }) {
  const run = timedNode([floorScript, dir, tenant.baseUrl], tenant.token, stdoutFile);
  return { ...run, seen: run.code === 0 ? JSON.parse(readFileSync(stdoutFile, 'utf8')) : undefined };
}

/** The apply floor (roles-apply-floor.mjs): the same creates from a bare undici loop, as a process. */
export function runApplyFloor({ tenant, stdoutFile, count, concurrency }) {
  const run = timedNode([applyFloorScript, tenant.baseUrl, String(count), String(concurrency)], tenant.token, stdoutFile);
  return { ...run, seen: run.code === 0 ? JSON.parse(readFileSync(stdoutFile, 'utf8')) : undefined };
}

function timedNode(args, token, stdoutFile, env = {}) {
  const usageFile = `${stdoutFile}.usage`;
  rmSync(usageFile, { force: true });
  const out = openSync(stdoutFile, 'w');
  const start = performance.now();
  const r = spawnSync(process.execPath, ['--import', usageHook, ...args], {
    cwd: root,
    // The token only ever travels in the environment, as users give it.
    env: withEnv({ ...env, ROLEFLOW_TOKEN: token, BENCH_USAGE_FILE: usageFile, NO_COLOR: '1' }),
    stdio: ['ignore', out, 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - start;
  closeSync(out);
  if (r.error) throw new Error(`node ${args[0]}: ${r.error.message}`);
  let usage = {};
  try {
    usage = JSON.parse(readFileSync(usageFile, 'utf8'));
  } catch {
    // No figures: the process ended before its exit handlers ran.
  }
  return { ms, code: r.status, stderr: r.stderr.trim().split('\n')[0] ?? '', maxRss: usage.maxRss, cpuMs: usage.cpuMs };
}

/** The tenant's Roles as GET /admin/roles/get answers them, to check what a run left behind. */
export async function listTenantRoles(tenant) {
  const { statusCode, body } = await request(`${tenant.baseUrl}/admin/roles/get`, { headers: { authorization: `Bearer ${tenant.token}` } });
  const roles = await body.json();
  if (statusCode !== 200) throw new Error(`GET /admin/roles/get: status ${statusCode}`);
  return roles;
}
