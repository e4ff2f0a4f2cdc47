/**
 * The GitHub Actions workflow `roleflow init` writes (`.github/workflows/roleflow.yml`), as text.
 * Pure. Every variant passes actionlint (test/action/workflows.test.ts).
 *
 * - No real tenant: pull requests only — plan, apply to the embedded tenant, flow tests — since
 *   applying on merge to a tenant that lives for one job, or checking it for drift, means nothing.
 * - A real tenant: plan and flow tests on pull requests, apply on the default branch one at a time,
 *   a daily drift check (`roleflow drift --detailed-exitcode`, an issue while anything drifted).
 * - A preview tenant (either way): a pull-request job runs `roleflow preview` there, queued per
 *   preview tenant and never cancelled midway (each run applies its own Roles to it).
 */

export interface WorkflowOptions {
  /** The real tenant the workflow plans, tests and applies (its token from `tokenEnv`). */
  tenant?: { name: string; tokenEnv: string };
  /** The tenant `preview` runs on (marked `preview: true`); `local` is the embedded tenant. */
  preview?: { name: string; tokenEnv?: string };
}

export function workflowText(options: WorkflowOptions): string {
  const { tenant, preview } = options;
  const header = tenant === undefined ? NO_TENANT_HEADER : TENANT_HEADER;
  const on = tenant === undefined ? ['on:', '  pull_request:', ''] : ['on:', '  pull_request:', '  push:', '    branches: [main]', '  schedule:', "    - cron: '17 6 * * *'", '  workflow_dispatch:', ''];
  const name = tenant?.name ?? 'local';
  const step = (title: string, id: string, command: string, extra: string[] = []) => stepLines(title, id, command, name, tenant?.tokenEnv, extra);
  const jobs =
    tenant === undefined
      ? [
          ...job('checks', "github.event_name == 'pull_request'", [
            // The embedded tenant starts empty on every runner: the Roles are applied before the tests.
            ...step('Plan', 'plan', 'plan'),
            ...step('Apply to the embedded tenant', 'apply', 'apply'),
            ...step('Flow tests', 'test', 'test'),
          ]),
        ]
      : [
          ...job('plan-and-test', "github.event_name == 'pull_request'", [...step('Plan', 'plan', 'plan'), ...step('Flow tests', 'test', 'test')]),
          ...job('apply', "github.event_name == 'push'", step('Apply', 'apply', 'apply'), {
            comment: 'One apply at a time per tenant: a second merge queues behind the first, never cancels it.',
            group: `roleflow-apply-${name}`,
          }),
          ...job('drift', "github.event_name == 'schedule' || github.event_name == 'workflow_dispatch'", step('Drift check', 'drift', 'drift', ['          args: --detailed-exitcode', '          notify: issue']), {
            permissions: ['contents: read', 'issues: write # one issue per tenant, opened on drift and closed once it is gone'],
          }),
        ];
  const previewJob =
    preview === undefined
      ? []
      : job(
          'preview',
          "github.event_name == 'pull_request'",
          stepLines('Behaviour diff', 'preview', 'preview', preview.name, preview.tokenEnv, ['          fail-on-regression: true']),
          {
            comment: `One preview at a time on ${preview.name}: each applies its own Roles there; queued, never cancelled midway.`,
            group: `roleflow-preview-${preview.name}`,
            // preview reads the base branch's role files with git.
            fetchDepth: true,
          },
        );
  return [...header, 'name: roleflow', '', ...on, 'permissions:', '  contents: read', '  pull-requests: write # the sticky comments', '', 'jobs:', ...jobs, ...previewJob].join('\n');
}

const NO_TENANT_HEADER = [
  '# Written by `roleflow init`. Pull requests: a plan, the Roles applied to the embedded tenant (a',
  '# stand-in that lives for the job), and the flow tests against it, each in one sticky comment.',
  '# There is no apply on merge and no drift check: they need a real tenant. To add one, run',
  '#   npx roleflow init --tenant NAME --base-url URL',
  '# which adds it to roleflow.config.yaml and, while this file is as init wrote it, replaces it with',
  '# the workflow for that tenant (apply on the default branch, a daily drift check).',
];

const TENANT_HEADER = [
  '# Written by `roleflow init`. Pull requests: a plan of what merging would change and the flow',
  '# tests, each in one sticky comment. The default branch: apply, one at a time per tenant.',
  '# Every morning: a drift check (`roleflow drift`) that tells a hand edit on the tenant (exit 5, an',
  '# issue opened) from a merge not applied yet (exit 2), with the apply journal the tenant keeps.',
];

function stepLines(title: string, id: string, command: string, tenant: string, tokenEnv: string | undefined, extra: string[]): string[] {
  return [
    `      - name: ${title}`,
    `        id: ${id}`,
    '        uses: roleflow/roleflow@v1',
    '        with:',
    `          command: ${command}`,
    `          tenant: ${tenant}`,
    ...extra,
    ...(tokenEnv === undefined ? [] : ['        env:', `          ${tokenEnv}: \${{ secrets.${tokenEnv} }}`]),
  ];
}

function job(name: string, condition: string, steps: string[], opts: { comment?: string; group?: string; fetchDepth?: boolean; permissions?: string[] } = {}): string[] {
  return [
    `  ${name}:`,
    `    if: ${condition}`,
    '    runs-on: ubuntu-latest',
    ...(opts.permissions === undefined ? [] : ['    permissions:', ...opts.permissions.map((p) => `      ${p}`)]),
    ...(opts.group === undefined ? [] : [...(opts.comment === undefined ? [] : [`    # ${opts.comment}`]), '    concurrency:', `      group: ${opts.group}`, '      cancel-in-progress: false']),
    '    steps:',
    '      - uses: actions/checkout@v5',
    ...(opts.fetchDepth ? ['        with:', '          fetch-depth: 0 # preview reads the base commit\'s role files with git'] : []),
    ...steps,
    '',
  ];
}
