import { setMaxListeners } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { Config } from '../core/config/config.js';
import { environmentSecrets, type Redactor } from '../core/text/redact.js';
import { escapeControls } from '../core/text/safe-text.js';
import type { FileIdentity } from '../files/git/work-tree.js';
import type { OpenTenant, TenantFlags } from '../tenant/open-tenant.js';
import { useColor } from '../terminal/color.js';
import { CommandOutput, type LiveLine } from '../terminal/output.js';
import { ProgressLine } from '../terminal/progress-line.js';
// What commands need of core/, here so that commands import run/ and not core/.
export { ExitCode } from '../core/exit-codes.js';
export { RoleflowError } from '../core/errors.js';
export { MAX_REPEAT } from '../core/flows/types.js';

export type Env = Record<string, string | undefined>;

/**
 * What a verb prints (implemented by terminal/output.ts `CommandOutput`): results on stdout,
 * diagnostics on stderr, every secret added so far masked, control characters escaped, and never
 * onto the live line (`showLiveLine`).
 */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** Machine-readable output: secrets masked in the values of `value`, which `render` serialises. */
  data<T>(value: T, render: (value: T) => string): void;
  /** `data` as JSON (`indent` 0: one line). */
  json(value: unknown, indent?: number): void;
  /** `data` for output too large to hold twice (see `CommandOutput.outDataBytes`). */
  dataBytes<T>(value: T, serialise: (value: T, redactor: Redactor) => Iterable<Uint8Array>): void;
  addSecrets(values: Iterable<string | undefined>, flag?: string): void;
  readonly redactor: Redactor;
  showLiveLine(line: LiveLine | undefined): void;
  /** Colours for what goes to this stream (a TTY, --color/--no-color, NO_COLOR, FORCE_COLOR). */
  color(stream: 'stdout' | 'stderr'): boolean;
}

/** The terminal a verb may talk to. */
export interface Terminal {
  stdinIsTTY: boolean;
  /** A live line may be drawn: stderr is a terminal, and stdout is not a pipe into it. */
  canShowProgress: boolean;
  /** The one status line on stderr; it draws nothing unless `canShowProgress`. */
  statusLine(): ProgressLine;
  /** Ask on the terminal (`apply`'s prompt): only `yes` is a yes. */
  confirm(question: string): Promise<boolean>;
  /** The regular file stdout was redirected to (`--json > report.json`), if any. */
  stdoutFile?: FileIdentity;
}

/** What a verb touches. The command base builds them from clipanion's context; tests may build their own. */
export interface Ports {
  cwd: string;
  env: Env;
  output: Output;
  /**
   * Open a tenant (closed when the command ends, if the verb did not). `named`: a run over several
   * tenants, whose `--verbose` request lines and retry notes say which tenant each is for.
   */
  openTenant(config: Config, flags: TenantFlags, opts?: { named?: boolean }): Promise<OpenTenant>;
  clock: { now(): Date };
  /**
   * The first SIGINT/SIGTERM as an AbortSignal, for a long-running verb: once it is aborted,
   * nothing new starts. `onInterrupt` runs just before. A second signal ends the process at once.
   */
  interruption(onInterrupt: () => void): AbortSignal;
  terminal: Terminal;
}

/** The options every verb has (the command base's). */
export interface CommonOptions {
  /** `--config FILE`. */
  config?: string | undefined;
  /** `--verbose`: one line per request on stderr. */
  verbose?: boolean;
}

/** What the CLI hands a command (clipanion's context, with what roleflow adds). */
export interface PortsContext {
  cwd: string;
  env: Env;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** stdout is a pipe (`roleflow test | tee log`): no live line is drawn where its output may land. */
  stdoutIsPipe?: boolean;
  stdoutFile?: FileIdentity;
  /** Resolves when the user asks the process to stop (SIGINT/SIGTERM). */
  waitForShutdown(): Promise<void>;
}

/** A request as `--verbose` prints it (the path has its query secrets masked already). */
export interface RequestLine {
  method: string;
  path: string;
  status: number | string;
  ms: number;
  attempt?: number;
}

/** `--verbose`'s line of one request, after `tenant NAME:` in a run over several tenants. */
export function requestLine(r: RequestLine, tenant?: string): string {
  const again = r.attempt !== undefined && r.attempt > 1 ? ` (attempt ${r.attempt})` : '';
  return `${tenant === undefined ? '' : `tenant ${escapeControls(tenant)}: `}${r.method} ${r.path} ${r.status} ${Math.round(r.ms)}ms${again}`;
}

/**
 * The ports of one command run: its output (`--color` as `color`), the tenants it opens (each
 * tracked until closed: `close` closes those left open, however the command ended), the clock,
 * Ctrl-C and the terminal.
 */
export function makePorts(context: PortsContext, flags: { color?: boolean | undefined; verbose: boolean }): { ports: Ports; close(): Promise<void> } {
  const colorFor = (stream: 'stdout' | 'stderr') => useColor(context.env, stream === 'stdout' ? context.stdoutIsTTY : context.stderrIsTTY, flags.color);
  const io = new CommandOutput(context, colorFor);
  const output: Output = {
    out: (text) => io.out(text),
    err: (text) => io.err(text),
    data: (value, render) => io.outData(value, render),
    json: (value, indent) => io.outJson(value, indent),
    dataBytes: (value, serialise) => io.outDataBytes(value, serialise),
    addSecrets: (values, flag) => io.addSecrets(values, flag),
    get redactor() {
      return io.redactor;
    },
    showLiveLine: (line) => io.showLiveLine(line),
    color: colorFor,
  };
  const opened = new Set<OpenTenant>();
  const canShowProgress = context.stderrIsTTY && context.stdoutIsPipe !== true;
  const ports: Ports = {
    cwd: context.cwd,
    env: context.env,
    output,
    async openTenant(config, tenantFlags, opts = {}) {
      const { openTenant } = await import('../tenant/open-tenant.js');
      // Secrets from the environment, every configured tenant's token among them, are redacted even before the tenant is open.
      io.addSecrets(configuredSecrets(context.env, config));
      const named = opts.named === true ? tenantFlags.tenant : undefined;
      const tenant = await openTenant({
        config,
        flags: tenantFlags,
        env: context.env,
        cwd: context.cwd,
        ...(flags.verbose ? { onRequest: (r) => io.err(requestLine(r, named)) } : {}),
        onRetry: (line) => io.err(opts.named === true ? `tenant ${escapeControls(tenantFlags.tenant ?? '')}: ${line}` : line),
      });
      io.addSecrets(tenant.secrets, tenant.target.tokenEnv);
      const close = tenant.close.bind(tenant);
      const tracked: OpenTenant = {
        ...tenant,
        close: async () => {
          opened.delete(tracked);
          await close();
        },
      };
      opened.add(tracked);
      return tracked;
    },
    clock: { now: () => new Date() },
    interruption(onInterrupt) {
      const controller = new AbortController();
      // Executions and sessions wait on it through one listener each (core/runs/stop-signal.ts): no leak to warn of.
      setMaxListeners(0, controller.signal);
      void context.waitForShutdown().then(() => {
        onInterrupt();
        controller.abort();
      });
      return controller.signal;
    },
    terminal: {
      stdinIsTTY: context.stdinIsTTY,
      canShowProgress,
      statusLine: () => new ProgressLine(context.stderr, canShowProgress),
      confirm: async (question) => (await import('../terminal/prompt.js')).confirm(context.stdin, context.stderr, question),
      ...(context.stdoutFile && { stdoutFile: context.stdoutFile }),
    },
  };
  return {
    ports,
    // An embedded tenant left open would keep the process alive after the command has failed.
    close: async () => {
      for (const tenant of [...opened]) await tenant.close().catch(() => undefined);
    },
  };
}

/** The config the verb uses: `--config FILE`, else `ROLEFLOW_CONFIG`, else the nearest roleflow.config.yaml (see `loadConfig`). */
/**
 * The secrets of the environment this config makes known: the values of secret variables by
 * name, and of every configured tenant's `token_env` whatever it is called (a Role on one tenant
 * may hold another's token). An open tenant adds its own token, whatever its length.
 */
export function configuredSecrets(env: Record<string, string | undefined>, config: Config): string[] {
  return environmentSecrets(env, Object.values(config.tenants).map((t) => t.tokenEnv));
}

export async function configOf(options: CommonOptions, ports: Pick<Ports, 'cwd' | 'env'>): Promise<Config> {
  const { loadConfig } = await import('../files/config-file.js');
  return loadConfig(ports.cwd, options.config, ports.env);
}
