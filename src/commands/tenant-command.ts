import { setMaxListeners } from 'node:events';
import { Option } from 'clipanion';
import type { Config } from '../core/config.js';
import { environmentSecrets } from '../core/redact.js';
import type { OpenTenant } from '../tenant/open-tenant.js';
import { RoleflowCommand } from './base.js';

/** A command that talks to a tenant. */
export abstract class TenantCommand extends RoleflowCommand {
  tenant = Option.String('--tenant', { description: 'Tenant name from the config (default: ROLEFLOW_TENANT, else default_tenant, else the embedded "local")' });
  baseUrl = Option.String('--base-url', { description: 'Tenant base URL, overriding the config' });
  wsUrl = Option.String('--ws-url', { description: 'Tenant WebSocket URL, overriding the config' });

  /** Tenants opened and not yet closed: closed by `cleanup` so that no failure leaves one running. */
  private readonly opened = new Set<OpenTenant>();

  async openTenant(config: Config): Promise<OpenTenant> {
    const { openTenant } = await import('../tenant/open-tenant.js');
    // Secrets from the environment are redacted even before the tenant is open.
    this.io.addSecrets(environmentSecrets(this.context.env));
    const tenant = await openTenant({
      config,
      // Flags win over the environment, which wins over the config's default_tenant.
      flags: { tenant: this.tenant ?? (this.context.env['ROLEFLOW_TENANT'] || undefined), baseUrl: this.baseUrl, wsUrl: this.wsUrl },
      env: this.context.env,
      cwd: this.context.cwd,
      ...(this.verbose ? { onRequest: (r) => this.requestLine(r) } : {}),
      onRetry: (line) => this.io.err(line),
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
   * The first SIGINT/SIGTERM as an AbortSignal, for a long-running command: once it is aborted,
   * nothing new starts and the command reports what was done. `onInterrupt` runs just before
   * (clear the progress line, say what happens now). A second signal ends the process at once.
   */
  protected interruption(onInterrupt: () => void): AbortSignal {
    const controller = new AbortController();
    // Every execution in flight listens (tens at once with --concurrency): not a leak to warn of.
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

