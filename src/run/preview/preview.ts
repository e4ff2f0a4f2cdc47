import { resolve } from 'node:path';
import { parseThreshold } from '../../core/compare/index.js';
import { RoleflowError } from '../../core/errors.js';
import { renderPreviewMarkdown, renderPreviewText } from '../../core/preview/index.js';
import type { Redactor } from '../../core/text/redact.js';
import { jsonText } from '../../core/text/safe-text.js';
import { quote } from '../../core/roles/index.js';
import { writeFileAtomic } from '../../files/role-files.js';
import { displayPath } from '../../files/source-files.js';
import { renderPreviewHtml } from '../../report/html/preview.js';
import { configOf, ExitCode, type CommonOptions, type Ports } from '../ports.js';
import { previewSides, type PreviewOutcome } from './preview-sides.js';
import { oneTenant, type TenantOptions } from '../tenants.js';

const FORMATS = ['text', 'markdown', 'json'] as const;

export interface PreviewOptions extends CommonOptions, TenantOptions {
  /** `--base REF` or `--base-report FILE`: one of them. */
  base?: string | undefined;
  baseReport?: string | undefined;
  /** PATH arguments. */
  paths: readonly string[];
  format?: string | undefined;
  json: boolean;
  /** `--reporter html=FILE`. */
  reporters: readonly string[];
  threshold: string;
  failOnRegression: boolean;
}

/**
 * `roleflow preview`: the behaviour diff of the work tree's Roles against a base, on a tenant set
 * aside for it (`previewSides`), printed as text, markdown or JSON, and as an HTML page when asked.
 */
export async function preview(options: PreviewOptions, ports: Ports): Promise<number> {
  const { output } = ports;
  const format = options.json ? 'json' : (options.format ?? 'text');
  if (!FORMATS.includes(format as (typeof FORMATS)[number])) throw new RoleflowError(`unknown --format ${format}: use ${FORMATS.join(', ')}`, 'usage');
  if (options.json && options.format !== undefined && options.format !== 'json') throw new RoleflowError(`--json and --format ${options.format} do not go together`, 'usage');
  if ((options.base === undefined) === (options.baseReport === undefined)) throw new RoleflowError('preview needs a base: --base REF (a git ref) or --base-report FILE, one of them', 'usage');
  const html = previewHtmlFile(options.reporters);
  const threshold = parseThreshold(options.threshold);
  if (!threshold.ok) throw new RoleflowError(threshold.error, 'usage');
  if (options.baseUrl !== undefined || options.wsUrl !== undefined) throw new RoleflowError('--base-url and --ws-url do not go with preview: it runs only on a configured tenant marked preview: true', 'usage');
  const config = await configOf(options, ports);
  const signal = ports.interruption(() => output.err('Interrupted: ending the executions in flight; no new one starts.'));
  const tenant = oneTenant(options, ports, 'preview');
  const outcome = await previewSides(
    {
      config,
      tenant,
      base: options.base !== undefined ? { ref: options.base } : { report: options.baseReport! },
      paths: options.paths,
      threshold: threshold.value,
      open: (name) => ports.openTenant(config, { tenant: name }),
      signal,
    },
    ports,
  );
  const { document } = outcome;
  if (format === 'json') output.data(document, (d) => `${jsonText(d, 2)}\n`);
  else output.out((format === 'markdown' ? renderPreviewMarkdown(document) : renderPreviewText(document)).replace(/\n$/, ''));
  if (html !== undefined) output.err(`wrote ${await writePreviewHtml(ports.cwd, html, outcome, output.redactor)}`);
  if (outcome.interrupted) {
    const { side, part } = outcome.holds;
    if (side === 'base' || part) {
      const name = document.tenant;
      const roles = side === 'base' ? `the base's Roles (${document.base.ref ?? ''})` : "the work tree's Roles";
      output.err(`Interrupted: tenant ${quote(name)} holds ${part ? 'part of ' : ''}${roles}${side === 'base' ? ", not the work tree's" : ''}: apply them (roleflow apply --tenant ${name}) or run preview again`);
    }
    return ExitCode.Interrupted;
  }
  if (document.contaminated) {
    output.err(`preview: contaminated — the tenant's Roles changed while the tests ran (${document.contamination.join('; ')}); run it again`);
    return ExitCode.Error;
  }
  return options.failOnRegression && document.summary.regressions > 0 ? ExitCode.TestsFailed : ExitCode.Ok;
}

/** `preview --reporter`: html=FILE only (the page of both sides); a usage error for anything else. */
function previewHtmlFile(specs: readonly string[]): string | undefined {
  let file: string | undefined;
  for (const spec of specs) {
    const match = /^html=(.+)$/.exec(spec);
    if (!match) throw new RoleflowError(`--reporter ${spec}: preview writes one reporter, html=FILE (the text, markdown and JSON go to stdout: --format)`, 'usage');
    file = match[1]!;
  }
  return file;
}

/** Write the HTML page of a preview; its path as messages show it. */
async function writePreviewHtml(cwd: string, file: string, outcome: PreviewOutcome, redactor: Redactor): Promise<string> {
  const abs = resolve(cwd, file);
  await writeFileAtomic(abs, renderPreviewHtml(redactor.values(outcome.document), redactor.values(outcome.reports)));
  return displayPath(cwd, abs);
}
