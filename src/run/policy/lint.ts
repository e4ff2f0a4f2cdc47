import { stat } from 'node:fs/promises';
import { posix, resolve } from 'node:path';
import type { Config } from '../../core/config/config.js';
import { RoleflowError, type Issue, type Result } from '../../core/errors.js';
import { parseFlowTestFile, type FlowTestFile } from '../../core/flows/index.js';
import { blocks, lintFlowFile, lintPluginFindings, lintRoleFile, renderedSecretIssues, renderLintJson, renderLintSarif, renderLintText, secretScanner, type Finding } from '../../core/config/policy/index.js';
import { checkRoleSet, parseRoleFile, roleFilesForTenant, type RoleFile } from '../../core/roles/index.js';
import { ROLE_FILE } from '../../core/roles/role-file.js';
import { parseYaml, type YamlSource } from '../../core/text/yaml-source.js';
import { FLOW_TEST_FILE, flowsDirOf, isFlowFileName, isJudgesFolder } from '../../files/flows/flow-files.js';
import { loadSchema, packageVersion } from '../../files/package-root.js';
import { configOf, ExitCode, type CommonOptions, type Ports } from '../ports.js';
import { tenantsOfConfig } from '../validate.js';
import { callPlugin, loadPolicyPlugins, type LoadedPlugin } from '../../files/policy-plugins.js';
import { git } from '../../files/git/git-commit.js';
import { isRoleFileName, rolesDirOf } from '../../files/role-files.js';
import { dirExists, displayPath, listFilesUnder, loadTextFiles, type SourceFile } from '../../files/source-files.js';

export interface LintOptions extends CommonOptions {
  /** Files and folders; none: the roles and flows folders of the config. */
  paths: readonly string[];
  format: 'text' | 'json' | 'sarif';
}

/** What lint touches besides reading files: the plugins (tests may pass their own). */
export interface LintPorts {
  plugins(cwd: string, config: Config): Promise<LoadedPlugin[]>;
}

/** `roleflow lint`: the findings printed as text, JSON or SARIF; exit 1 when one is of level error or hard. */
export async function lint(options: LintOptions, ports: Ports): Promise<number> {
  const config = await configOf(options, ports);
  const result = await lintFiles({ cwd: ports.cwd, config, paths: options.paths, env: ports.env });
  const { output } = ports;
  if (options.format === 'json') output.data(result.findings, renderLintJson);
  else if (options.format === 'sarif') {
    const fromTop = await fromCheckoutTop(ports.cwd);
    output.data(result.findings.map((f) => ({ ...f, file: fromTop(f.file) })), (findings) => renderLintSarif(findings, { version: packageVersion() }));
  }
  else output.out(renderLintText(result.findings, result));
  return result.findings.some((f) => blocks(f.level)) ? ExitCode.Error : ExitCode.Ok;
}

export interface LintResult {
  findings: Finding[];
  roleFiles: number;
  flowFiles: number;
}

/**
 * `roleflow lint`, offline: the config's `policy:` over the role files and flow test files of
 * `paths` (`*.md` are role files, `*.yaml`/`*.yml` flow tests), then each plugin over the parsed
 * files. A file that does not parse is a finding (`invalid`, error) at its problem, so one run
 * shows every finding.
 */
export async function lintFiles(
  options: { cwd: string; config: Config; paths: readonly string[]; env: Record<string, string | undefined> },
  ports: LintPorts = { plugins: loadPolicyPlugins },
): Promise<LintResult> {
  const { cwd, config } = options;
  const { roleSources, flowSources } = await sourcesOf(cwd, config, options.paths);
  const findings: Finding[] = [];
  const invalid = (issues: readonly Issue[]) => findings.push(...issues.map((i): Finding => ({ rule: 'invalid', level: 'error', file: i.file, line: i.line, column: i.col, message: i.message })));

  const roleSchema = loadSchema('role');
  const roles = await loadTextFiles(roleSources, ROLE_FILE, (text, file) => parseRoleFile(text, file, roleSchema));
  invalid([...roles.issues, ...checkRoleSet(roles.values)]);
  const scanner = secretScanner(options.env, config);
  for (const role of roles.values) findings.push(...lintRoleFile(role, config.policy.roles, scanner));
  // A secret a config variable puts in, as each tenant would get the Role (the files as written are above).
  for (const tenant of tenantsOfConfig(config)) {
    const rendered = roleFilesForTenant(roles.values, tenant.name, tenant.vars);
    if (!rendered.ok) continue;
    for (const i of renderedSecretIssues(roles.values, rendered.value.kept, tenant.name, scanner)) {
      findings.push({ rule: 'secrets', level: 'error', file: i.file, line: i.line, column: i.col, message: i.message.replace(/^secrets: /, '') });
    }
  }

  const flowSchema = loadSchema('flow-test');
  const flows = await loadTextFiles(flowSources, FLOW_TEST_FILE, (text, file) => withSource(parseFlowTestFile(text, file, flowSchema), text, file));
  invalid(flows.issues);
  for (const { file, source } of flows.values) findings.push(...lintFlowFile(file, config.policy.flows, source));

  findings.push(...(await pluginFindings(cwd, config, ports, roles.values, flows.values.map((f) => f.file))));
  return { findings, roleFiles: roleSources.length, flowFiles: flowSources.length };
}

async function pluginFindings(cwd: string, config: Config, ports: LintPorts, roles: readonly RoleFile[], flows: readonly FlowTestFile[]): Promise<Finding[]> {
  const found: Finding[] = [];
  for (const plugin of await ports.plugins(cwd, config)) {
    const returned = lintPluginFindings(plugin.name, await callPlugin(plugin, { kind: 'files', roles, flows }));
    if (typeof returned === 'string') throw new RoleflowError(returned);
    found.push(...returned);
  }
  return found;
}

function withSource(parsed: Result<FlowTestFile>, text: string, file: string): Result<{ file: FlowTestFile; source?: YamlSource }> {
  if (!parsed.ok) return parsed;
  const source = parseYaml(text, { file });
  return { ok: true, value: source.ok ? { file: parsed.value, source: source.value } : { file: parsed.value } };
}

/** The role files and flow test files to lint: of `paths` as given, else of the config's folders. */
async function sourcesOf(cwd: string, config: Config, paths: readonly string[]): Promise<{ roleSources: SourceFile[]; flowSources: SourceFile[] }> {
  const roleSources: SourceFile[] = [];
  const flowSources: SourceFile[] = [];
  if (paths.length === 0) {
    const roles = rolesDirOf(cwd, config, undefined);
    const flows = flowsDirOf(cwd, config, undefined);
    const [hasRoles, hasFlows] = await Promise.all([dirExists(roles), dirExists(flows)]);
    if (!hasRoles && !hasFlows) throw new RoleflowError(`nothing to lint: neither ${roles.display}/ nor ${flows.display}/ exists (name files or folders)`);
    if (hasRoles) roleSources.push(...(await listFilesUnder(cwd, roles.abs, isRoleFileName)));
    if (hasFlows) flowSources.push(...(await listFilesUnder(cwd, flows.abs, isFlowFileName, isJudgesFolder)));
    return { roleSources, flowSources };
  }
  for (const path of paths) {
    const abs = resolve(cwd, path);
    const info = await stat(abs).catch(() => undefined);
    if (!info) throw new RoleflowError(`${path}: no such file or folder`, 'usage');
    if (info.isDirectory()) {
      roleSources.push(...(await listFilesUnder(cwd, abs, isRoleFileName)));
      flowSources.push(...(await listFilesUnder(cwd, abs, isFlowFileName, isJudgesFolder)));
    } else if (isRoleFileName(path.split(/[\\/]/).pop() ?? '')) roleSources.push({ abs, file: displayPath(cwd, abs) });
    else if (isFlowFileName(path)) flowSources.push({ abs, file: displayPath(cwd, abs) });
    else throw new RoleflowError(`${path}: neither a role file (*.md) nor a flow test file (*.yaml, *.yml)`, 'usage');
  }
  return { roleSources: unique(roleSources), flowSources: unique(flowSources) };
}

function unique(sources: readonly SourceFile[]): SourceFile[] {
  return [...new Map(sources.map((s) => [s.file, s])).values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * A path as shown (relative to `cwd`) made relative to the top of the git checkout `cwd` is in —
 * what code scanning reads SARIF's `%SRCROOT%` as — else left as it is (no checkout, or outside it).
 */
async function fromCheckoutTop(cwd: string): Promise<(file: string) => string> {
  const prefix = await git(cwd, ['rev-parse', '--show-prefix']);
  if (!prefix.ok) return (file) => file;
  const from = prefix.stdout.replace(/\r?\n$/, '');
  return (file) => {
    const top = posix.normalize(`${from}${file.split('\\').join('/')}`);
    return top === '..' || top.startsWith('../') ? file : top;
  };
}
