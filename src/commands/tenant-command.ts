import { setMaxListeners } from 'node:events';
import { Option } from 'clipanion';
import type { Config } from '../core/config.js';
import { RoleflowError } from '../core/errors.js';
import { environmentSecrets } from '../core/redact.js';
import { escapeControls } from '../core/safe-text.js';
import type { OpenTenant, TenantFlags } from '../tenant/open-tenant.js';
import { RoleflowCommand } from './base.js';

/** A command that talks to tenants: opening them (closed by `cleanup`), and Ctrl-C. */
export abstract class TenantAccessCommand extends RoleflowCommand {
  /** Tenants opened and not yet closed: closed by `cleanup` so that no failure leaves one running. */
  private readonly opened = new Set<OpenTenant>();

  /** `named`: a run over several tenants, whose `--verbose` request lines and retry notes say which tenant each is for. */
  async openTenantWith(config: Config, flags: TenantFlags, named = false): Promise<OpenTenant> {
    const { openTenant } = await import('../tenant/open-tenant.js');
    // Secrets from the environment are redacted even before the tenant is open.
    this.io.addSecrets(environmentSecrets(this.context.env));
    const tenant = await openTenant({
      config,
      flags,
      env: this.context.env,
      cwd: this.context.cwd,
      ...(this.verbose ? { onRequest: (r) => this.requestLine(r, named ? flags.tenant : undefined) } : {}),
      onRetry: (line) => this.io.err(named ? `tenant ${escapeControls(flags.tenant ?? '')}: ${line}` : line),
    });
    this.io.addSecrets(tenant.secrets);
    const close = tenant.close.bind(tenant);
    const tracked: OpenTenant = {
      ...tenant,
      close: async () => {
        this.opened.delete(tracked);
        await close();
      },
    };
    this.opened.add(tracked);
    return tracked;
  }

  /**
   * Every tenant of a run over several opened, in order, before anything is sent to any: an unknown
   * tenant, a missing token or an unsafe URL stops the run here (the ones opened are closed).
   * Opening a configured tenant sends nothing.
   */
  async openTenants(config: Config, names: readonly string[]): Promise<OpenTenant[]> {
    const opened: OpenTenant[] = [];
    try {
      for (const name of names) opened.push(await this.openTenantWith(config, { tenant: name }, true));
    } catch (error) {
      for (const tenant of opened) await tenant.close().catch(() => undefined);
      throw error;
    }
    return opened;
  }

  /**
   * The first SIGINT/SIGTERM as an AbortSignal, for a long-running command: once it is aborted,
   * nothing new starts and the command reports what was done. `onInterrupt` runs just before
   * (clear the progress line, say what happens now). A second signal ends the process at once.
   */
  interruption(onInterrupt: () => void): AbortSignal {
    const controller = new AbortController();
    // Executions and sessions wait on it through one listener (core/runs/stop-signal.ts); no listener count is a leak to warn of.
    setMaxListeners(0, controller.signal);
    void this.context.waitForShutdown().then(() => {
      onInterrupt();
      controller.abort();
    });
    return controller.signal;
  }

  // An embedded tenant left open would keep the process alive after the command has failed.
  override async cleanup(): Promise<void> {
    for (const tenant of [...this.opened]) await tenant.close().catch(() => undefined);
  }
}

/** A command that talks to the tenant `--tenant` (or `ROLEFLOW_TENANT`, or the default) names. */
export abstract class TenantCommand extends TenantAccessCommand {
  tenants = Option.Array('--tenant', {
    description: 'Tenant name from the config (default: ROLEFLOW_TENANT, else default_tenant, else the embedded "local"); plan, apply and test take it more than once',
  });
  baseUrl = Option.String('--base-url', { description: 'Tenant base URL, overriding the config' });
  wsUrl = Option.String('--ws-url', { description: 'Tenant WebSocket URL, overriding the config' });

  /** The one tenant `--tenant` names, else `ROLEFLOW_TENANT`; undefined for the config's default. */
  get tenant(): string | undefined {
    const named = this.tenants ?? [];
    if (new Set(named).size > 1) throw new RoleflowError(`--tenant is given ${named.length} times: roleflow ${this.path.join(' ')} works on one tenant`, 'usage');
    return named[0] ?? (this.context.env['ROLEFLOW_TENANT'] || undefined);
  }

  /** `name`, or the tenant this command's flags name. */
  async openTenant(config: Config, name?: string): Promise<OpenTenant> {
    return this.openTenantWith(config, { tenant: name ?? this.tenant, baseUrl: this.baseUrl, wsUrl: this.wsUrl });
  }
}

/** `plan`, `apply` and `test`: `--tenant` more than once, or `--all-tenants`. */
export abstract class ManyTenantsCommand extends TenantCommand {
  allTenants = Option.Boolean('--all-tenants', false, { description: 'Every tenant of the config (not the embedded "local" unless --tenant local names it)' });

  /**
   * The tenants of this run when it is over several (`--all-tenants`, or `--tenant` more than
   * once), checked against the config; undefined for a run over one tenant, as before.
   */
  async severalTenants(config: Config): Promise<string[] | undefined> {
    const named = this.tenants ?? [];
    if (!this.allTenants && named.length <= 1) return undefined;
    if (this.baseUrl !== undefined || this.wsUrl !== undefined) {
      throw new RoleflowError('--base-url and --ws-url override one tenant: not with several (--all-tenants, --tenant more than once)', 'usage');
    }
    const { selectTenants } = await import('../core/tenants/index.js');
    return selectTenants(config, { named, all: this.allTenants });
  }
}
