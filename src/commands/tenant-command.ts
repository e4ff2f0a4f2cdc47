import { Option } from 'clipanion';
import type { Config } from '../core/config.js';
import type { OpenTenant, TenantFlags } from '../tenant/open-tenant.js';
import { openTenants, oneTenant, severalTenants } from '../run/tenants/open.js';
import { RoleflowCommand } from './base.js';

// Transitional: goes once every command calls its verb in run/.
export abstract class TenantAccessCommand extends RoleflowCommand {
  async openTenantWith(config: Config, flags: TenantFlags, named = false): Promise<OpenTenant> {
    return this.ports.openTenant(config, flags, { named });
  }

  async openTenants(config: Config, names: readonly string[]): Promise<OpenTenant[]> {
    return openTenants(this.ports, config, names);
  }

  interruption(onInterrupt: () => void): AbortSignal {
    return this.ports.interruption(onInterrupt);
  }
}

export abstract class TenantCommand extends TenantAccessCommand {
  tenants = Option.Array('--tenant', {
    description: 'Tenant name from the config (default: ROLEFLOW_TENANT, else default_tenant, else the embedded "local"); plan, apply and test take it more than once',
  });
  baseUrl = Option.String('--base-url', { description: 'Tenant base URL, overriding the config' });
  wsUrl = Option.String('--ws-url', { description: 'Tenant WebSocket URL, overriding the config' });

  get tenant(): string | undefined {
    return oneTenant(this, this.context, this.path.join(' '));
  }

  async openTenant(config: Config, name?: string): Promise<OpenTenant> {
    return this.openTenantWith(config, { tenant: name ?? this.tenant, baseUrl: this.baseUrl, wsUrl: this.wsUrl });
  }
}

export abstract class ManyTenantsCommand extends TenantCommand {
  allTenants = Option.Boolean('--all-tenants', false, { description: 'Every tenant of the config (not the embedded "local" unless --tenant local names it)' });

  async severalTenants(config: Config): Promise<string[] | undefined> {
    return severalTenants(config, this);
  }
}
