import { workflowText } from './workflow.js';

/**
 * What `roleflow init` writes into a repository, as data: each file's path (with `/`) and text.
 * Pure: `files/init-files.ts` decides what to write, keep or merge. Everything here passes `validate`,
 * `plan`, `apply` and then `test` against the embedded tenant as written (the example flow test
 * needs the example Role on the tenant), and the workflow passes actionlint.
 */

export interface InitOptions {
  /** A real tenant to configure beside the embedded one (`--tenant NAME --base-url URL`). */
  tenant?: { name: string; baseUrl: string; wsUrl?: string };
  /** `--preview-tenant NAME`: the tenant marked `preview: true`, which the pull-request workflow previews on (`local`: the embedded one). */
  previewTenant?: string;
}

export interface InitFile {
  path: string;
  text: string;
}

/** The environment variable a configured tenant's token comes from: `ROLEFLOW_TOKEN_<NAME>`. */
export function tokenEnvFor(tenant: string): string {
  return `ROLEFLOW_TOKEN_${tenant.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')}`;
}

/** Where the schemas are once roleflow is installed in the repository. */
const SCHEMAS = 'node_modules/roleflow/schemas';

export function initFiles(options: InitOptions): InitFile[] {
  return [
    { path: 'roleflow.config.yaml', text: configText(options) },
    { path: 'roles/example-assistant.md', text: ROLE },
    { path: 'flows/example.yaml', text: FLOW },
    { path: '.github/workflows/roleflow.yml', text: initWorkflow(options) },
  ];
}

/** The workflow for these options; the preview job's token is the configured tenant's, when it is that one. */
export function initWorkflow({ tenant, previewTenant }: InitOptions): string {
  const preview = previewTenant === undefined ? undefined : { name: previewTenant, ...(previewTenant === 'local' ? {} : { tokenEnv: tokenEnvFor(previewTenant) }) };
  return workflowText({ ...(tenant && { tenant: { name: tenant.name, tokenEnv: tokenEnvFor(tenant.name) } }), ...(preview && { preview }) });
}

/** The workflows init writes without a real tenant: one of them, unedited, is replaced when `--tenant` adds one. */
export function embeddedWorkflows(): string[] {
  return [initWorkflow({}), initWorkflow({ previewTenant: 'local' })];
}

function configText({ tenant, previewTenant }: InitOptions): string {
  const lines = [
    `# yaml-language-server: $schema=./${SCHEMAS}/config.schema.json`,
    '#',
    '# roleflow: Roles as code and flow tests as code. `local` is the embedded tenant (state under',
    '# .roleflow/): `npx roleflow plan`, `apply` and `test` work with nothing else.',
    'default_tenant: local',
  ];
  if (tenant !== undefined) {
    lines.push(
      'tenants:',
      `  ${tenant.name}:`,
      `    base_url: ${JSON.stringify(tenant.baseUrl)}`,
      ...(tenant.wsUrl === undefined ? [] : [`    ws_url: ${JSON.stringify(tenant.wsUrl)}`]),
      `    token_env: ${tokenEnvFor(tenant.name)}   # the token comes from this variable, never from this file`,
      ...(previewTenant === tenant.name ? ['    preview: true          # set aside for roleflow preview, which applies pull requests\' Roles to it'] : []),
    );
  }
  if (previewTenant === 'local') lines.push('local:', '  preview: true          # roleflow preview --tenant local: the behaviour diff on the embedded tenant');
  if (tenant !== undefined) {
    // The drift check of the workflow runs in a job of its own: the journal must be where it can read it.
    lines.push('history:', "  store: tenant          # the apply journal (history, rollback, drift) in the tenant's Role roleflow.history, shared by every CI run");
  }
  lines.push(
    'roles:',
    '  dir: roles',
    '  prune: false          # true: delete tenant Roles that have no file',
    '  protect: []           # globs of Role names never updated or deleted, e.g. "admin-*"',
    '  max_deletes: 10',
    'flows:',
    '  dir: flows',
    '',
  );
  return lines.join('\n');
}

const ROLE = `---
name: example-assistant
description: Answers briefly, in the language of the question
---
You are a helpful assistant. Answer briefly and accurately, in the language the user writes in.
When you do not know, say so and suggest where to look.
`;

// Tied to ROLE: the embedded tenant's \`assistant\` flow runs with the Role example-assistant and
// answers with its description (emulator-flows.yaml), so this test passes once ROLE is applied.
const FLOW = `# yaml-language-server: $schema=../${SCHEMAS}/flow-test.schema.json
#
# A first flow test. The embedded tenant's \`assistant\` flow runs with the Role example-assistant
# (roles/example-assistant.md) and its answer carries that Role's description: edit the description,
# \`roleflow apply\`, and this test fails until it expects the new one. Before the Role is applied
# the flow's step fails ("Role ... not found on the tenant"): run \`roleflow apply\` first.
# With your own tenant, point \`flow:\` at one of its flows and assert on what it returns.
flow: assistant
transport: ws
tests:
  - name: answers as the example-assistant Role
    inputs: { question: "Where is my order?" }
    until: { messages: 1 }          # one node: over at its completed message
    timeout: 10s
    expect:
      outputs:
        - { path: "results[0].answer", contains: "Where is my order?" }
        - { path: "results[0].role", equals: "Answers briefly, in the language of the question" }
`;

/** The `yaml.schemas` entries of `.vscode/settings.json` (the Red Hat YAML extension). */
export function editorSchemas(): Record<string, string[]> {
  return {
    [`./${SCHEMAS}/config.schema.json`]: ['roleflow.config.yaml'],
    [`./${SCHEMAS}/flow-test.schema.json`]: ['flows/**/*.yaml', 'flows/**/*.yml'],
  };
}

/** What `.gitignore` needs: the embedded tenant's state (and roleflow's journal), and the installed packages. */
export const GITIGNORE_LINES = ['.roleflow/', 'node_modules/'];
