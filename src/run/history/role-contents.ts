import { tenantVars, type Config } from '../../core/config/config.js';
import { roleSha, type JournalRecord, type RoleContent } from '../../core/apply/history/index.js';
import { roleFilesForTenant } from '../../core/roles/index.js';
import { loadCommitRoles } from '../../files/git/commit-roles.js';

/** Commits searched for one Role's content, at most: each costs a read of its role files. */
const MAX_COMMITS = 30;

/**
 * The fields of a Role known only by its fingerprint (`roleSha`), for `history show --diff` and
 * `rollback --to ID`: the content the journal kept (a hand edit roleflow overwrote), else the role
 * files of the commits the journal names, read with git and rendered for the tenant (variables and
 * `tenants:` as at that commit). A commit git no longer has, or whose files do not parse, holds nothing.
 */
export class RoleContents {
  private readonly kept = new Map<string, RoleContent>();
  private readonly commits = new Map<string, Promise<Map<string, RoleContent>>>();

  constructor(
    private readonly cwd: string,
    private readonly config: Config,
    private readonly tenant: string,
    records: readonly JournalRecord[],
  ) {
    for (const r of records) for (const [sha, fields] of Object.entries(r.before_content ?? {})) if (roleSha(fields) === sha) this.kept.set(sha, fields);
  }

  /** The fields of `sha`: kept by the journal, else in the first of `commits` (newest first) that holds them. */
  async find(sha: string, commits: readonly (string | null)[]): Promise<RoleContent | undefined> {
    const kept = this.kept.get(sha);
    if (kept !== undefined) return kept;
    const distinct = [...new Set(commits.filter((c): c is string => c !== null))].slice(0, MAX_COMMITS);
    for (const commit of distinct) {
      const found = (await this.rolesAt(commit)).get(sha);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private rolesAt(commit: string): Promise<Map<string, RoleContent>> {
    let roles = this.commits.get(commit);
    if (roles === undefined) {
      roles = this.read(commit);
      this.commits.set(commit, roles);
    }
    return roles;
  }

  private async read(commit: string): Promise<Map<string, RoleContent>> {
    const found = new Map<string, RoleContent>();
    try {
      const at = await loadCommitRoles(this.cwd, this.config, commit, undefined);
      const rendered = roleFilesForTenant(at.files, this.tenant, tenantVars(at.config, this.tenant));
      if (!rendered.ok) return found;
      for (const f of rendered.value.kept) {
        const fields = { name: f.name, description: f.description, content: f.content };
        found.set(roleSha(fields), fields);
      }
    } catch {
      // Not a commit of this repository (any more), or files that do not parse: nothing from it.
    }
    return found;
  }
}

/** The commits of `records` from index `upTo` down to the first, newest first: where content that record saw came from. */
export function commitsBefore(records: readonly JournalRecord[], upTo: number): (string | null)[] {
  return records.slice(0, upTo + 1).reverse().map((r) => r.commit);
}
