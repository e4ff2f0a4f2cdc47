import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildCli } from '../../src/cli.js';
import type { RoleflowContext } from '../../src/commands/base.js';
import { parseConfig } from '../../src/core/config/config.js';
import { parseFlowTestFile } from '../../src/core/flows/parse.js';
import { parseRoleFile } from '../../src/core/roles/index.js';
import { loadFlowsConfig } from '../../src/emulator/flows-config.js';
import { loadSchema } from '../../src/files/package-root.js';
import { lint } from '../helpers/actionlint.js';
import { repoRoot } from '../helpers/cli.js';
import { anchors, brokenLinks, fencedBlocks, links, roleflowCommands, type FencedBlock } from './markdown.js';

/** The README, every page of docs/, and the READMEs the pages link to. */
const DOC_FILES = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
  'flows/README.md',
  'roles/README.md',
  'src/emulator/README.md',
];

/** A yaml block that is only part of a file says so on a comment line of its own. */
const FRAGMENT = /^\s*# not a complete file\b/m;

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');
const configKeys = Object.keys((loadSchema('config') as { properties: object }).properties);
const exampleWorkflows = readdirSync(join(repoRoot, 'docs/workflows')).map((f) => read(`docs/workflows/${f}`));

type Kind = 'fragment' | 'workflow' | 'flow-test' | 'emulator-flows' | 'config' | 'unknown';

/** Which file a yaml block is, by its keys. */
function kindOf(block: FencedBlock, value: unknown): Kind {
  if (FRAGMENT.test(block.text)) return 'fragment';
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'unknown';
  const keys = Object.keys(value);
  const has = (...k: string[]) => k.every((key) => keys.includes(key));
  if (has('on', 'jobs')) return 'workflow';
  if (has('flow', 'tests')) return 'flow-test';
  const flows = (value as { flows?: unknown }).flows;
  if (keys.length === 1 && flows !== null && typeof flows === 'object' && Object.values(flows).every((f) => typeof f === 'object' && f !== null && 'steps' in f)) {
    return 'emulator-flows';
  }
  return keys.every((k) => configKeys.includes(k)) ? 'config' : 'unknown';
}

/** Problems of one yaml block, as `file:line: message` lines; none when it is a valid file of its kind. */
async function yamlProblems(file: string, block: FencedBlock): Promise<string[]> {
  const where = `${file}:${block.line}`;
  let value: unknown;
  try {
    value = parse(block.text, { strict: true, prettyErrors: true });
  } catch (error) {
    return [`${where}: invalid YAML: ${(error as Error).message.split('\n')[0]}`];
  }
  const issues = (r: { ok: true } | { ok: false; issues: { line: number; message: string }[] }) =>
    r.ok ? [] : r.issues.map((i) => `${where} (+${i.line}): ${i.message}`);
  switch (kindOf(block, value)) {
    case 'fragment':
      return [];
    case 'workflow': {
      const problems = await lint(where, block.text);
      return exampleWorkflows.includes(block.text) ? problems : [...problems, `${where}: a whole workflow that is no file of docs/workflows/`];
    }
    case 'flow-test':
      return issues(parseFlowTestFile(block.text, where, loadSchema('flow-test')));
    case 'emulator-flows':
      return issues(loadFlowsConfig(block.text, where));
    case 'config':
      return issues(parseConfig(block.text, where, loadSchema('config')));
    case 'unknown':
      return [`${where}: a yaml block that is no config, flow test, emulator flows or workflow: mark a fragment "# not a complete file"`];
  }
}

/** Problems of a `roleflow …` line: what the CLI's parser says of it (an unknown command or flag, a missing option). */
function commandProblems(file: string, block: FencedBlock): string[] {
  const cli = buildCli({ colors: false });
  const context = { env: {}, stdin: process.stdin, stdout: new PassThrough(), stderr: new PassThrough(), colorDepth: 1, cwd: repoRoot } as unknown as RoleflowContext;
  return roleflowCommands(block).flatMap(({ argv, line }) => {
    try {
      cli.process(argv, context);
      return [];
    } catch (error) {
      return [`${file}:${line}: roleflow ${argv.join(' ')}: ${(error as Error).message.split('\n')[0]}`];
    }
  });
}

/** Links to files of roleflow's repository by URL (what the package does not ship) that name no file of it. */
function brokenRepositoryUrls(file: string, markdown: string): string[] {
  return links(markdown).flatMap(({ target, line }) => {
    const path = /^https:\/\/github\.com\/roleflow\/roleflow\/(?:blob|tree)\/main\/([^#?]+)/.exec(target)?.[1];
    return path === undefined || existsSync(join(repoRoot, path)) ? [] : [`${file}:${line}: ${target}: no such file in the repository`];
  });
}

describe.each(DOC_FILES)('%s', (file) => {
  const markdown = read(file);
  const blocks = fencedBlocks(markdown);

  it('yaml blocks parse, and each whole file is valid: configs and flow tests by their schemas, workflows by actionlint', async () => {
    const problems = await Promise.all(blocks.filter((b) => b.lang === 'yaml' || b.lang === 'yml').map((b) => yamlProblems(file, b)));
    expect(problems.flat()).toEqual([]);
  });

  it('json blocks parse; role-file examples (markdown blocks with front-matter) are valid role files', () => {
    const problems = blocks.flatMap((b) => {
      if (b.lang === 'json') {
        try {
          JSON.parse(b.text);
          return [];
        } catch (error) {
          return [`${file}:${b.line}: ${(error as Error).message}`];
        }
      }
      if ((b.lang === 'markdown' || b.lang === 'md') && b.text.startsWith('---\n')) {
        const parsed = parseRoleFile(b.text, `${file}:${b.line}`, loadSchema('role'));
        return parsed.ok ? [] : parsed.issues.map((i) => `${file}:${b.line} (+${i.line}): ${i.message}`);
      }
      return [];
    });
    expect(problems).toEqual([]);
  });

  it('every roleflow command line in a shell block is one the CLI accepts', () => {
    expect(blocks.flatMap((b) => (['sh', 'bash', 'shell', 'console'].includes(b.lang) ? commandProblems(file, b) : []))).toEqual([]);
  });

  it('relative links lead to files and headings that exist; repository URLs to files of the repository', () => {
    expect([...brokenLinks(repoRoot, file, markdown), ...brokenRepositoryUrls(file, markdown)]).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('find a bad yaml block, an unknown flag, an unknown command and a broken link', async () => {
    const page = [
      '# Page',
      '',
      '```yaml',
      'roles: { dri: roles }',
      '```',
      '',
      '```yaml',
      'flow: x',
      'tests: [{ name: a, expect: { outputs: [{ path: results, equalz: 1 }] } }]',
      '```',
      '',
      '```yaml',
      'something: else',
      '```',
      '',
      '```sh',
      'npx roleflow plan --prune --detailed-exitcod && roleflow plna',
      'ROLEFLOW_TOKEN=x roleflow test --repeat 3 | tee out.txt   # fine',
      '```',
      '',
      '[a](nowhere.md) [b](#page) [c](#nope) [d](https://example.com/x)',
      '',
    ].join('\n');
    const blocks = fencedBlocks(page);
    expect((await yamlProblems('page.md', blocks[0]!)).join('\n')).toMatch(/page\.md:3 \(\+1\): .*dri/);
    expect((await yamlProblems('page.md', blocks[1]!)).join('\n')).toMatch(/equalz/);
    expect(await yamlProblems('page.md', blocks[2]!)).toEqual([expect.stringMatching(/no config, flow test/)]);
    expect(await yamlProblems('page.md', { ...blocks[2]!, text: `# not a complete file\n${blocks[2]!.text}` })).toEqual([]);
    expect(roleflowCommands(blocks[3]!).map((c) => c.argv)).toEqual([['plan', '--prune', '--detailed-exitcod'], ['plna'], ['test', '--repeat', '3']]);
    expect(commandProblems('page.md', blocks[3]!)).toEqual([
      expect.stringMatching(/^page\.md:17: roleflow plan --prune --detailed-exitcod: .*--detailed-exitcod/),
      expect.stringMatching(/^page\.md:17: roleflow plna: Command not found/),
    ]);
    expect(brokenLinks('/nowhere', 'page.md', page, (p) => p === '/nowhere/page.md')).toEqual(['page.md:21: nowhere.md: no such file', 'page.md:21: #nope: no heading #nope']);
  });

  it('make anchors as GitHub does', () => {
    expect([...anchors('# The embedded tenant (`roleflow serve`)\n## Staging, then production: test-gated promotion\n## A b\n## A b\n')]).toEqual([
      'the-embedded-tenant-roleflow-serve',
      'staging-then-production-test-gated-promotion',
      'a-b',
      'a-b-1',
    ]);
  });
});
