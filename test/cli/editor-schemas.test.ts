import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { repoRoot, tempDir } from '../helpers/cli.js';

/**
 * The schemas as editors use them: yaml-language-server (what VS Code's YAML extension, Neovim,
 * Helix and JetBrains run) over the Language Server Protocol, with every request to the network
 * refused, given a flow test file and the config that name their schema on their first line.
 */

const server = createRequire(import.meta.url).resolve('yaml-language-server/bin/yaml-language-server');

interface Message {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
}

class LanguageClient {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();
  readonly notifications: Message[] = [];
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    this.send({ jsonrpc: '2.0', id, method, params });
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** The first notification of `method` that `matches`, waiting for it. */
  async notification(method: string, matches: (params: never) => boolean): Promise<unknown> {
    for (;;) {
      const found = this.notifications.find((n) => n.method === method && matches(n.params as never));
      if (found) return found.params;
      await new Promise<void>((resolve) => this.listeners.push(resolve));
    }
  }

  private send(message: object): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString('latin1'))?.[1]);
      if (this.buffer.length < end + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString('utf8')) as Message;
      this.buffer = this.buffer.subarray(end + 4 + length);
      if (message.id !== undefined && message.method === undefined) this.waiting.get(message.id)?.(message.result);
      else if (message.id !== undefined && message.method !== undefined) this.send({ jsonrpc: '2.0', id: message.id, result: message.method === 'workspace/configuration' ? [SETTINGS.yaml] : null });
      else {
        this.notifications.push(message);
        for (const wake of this.listeners.splice(0)) wake();
      }
    }
  }
}

const SETTINGS = { yaml: { validate: true, completion: true, hover: true, schemaStore: { enable: false } } };

async function startServer(dir: string): Promise<LanguageClient> {
  // Every request to the network goes to a port nothing listens on.
  const offline = { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9', http_proxy: 'http://127.0.0.1:9', https_proxy: 'http://127.0.0.1:9' };
  const child = spawn(process.execPath, [server, '--stdio'], { cwd: dir, env: { ...process.env, ...offline } });
  onTestFinished(() => {
    child.kill();
  });
  const client = new LanguageClient(child);
  await client.request('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    capabilities: { textDocument: { completion: { completionItem: { snippetSupport: false } }, publishDiagnostics: {} }, workspace: { configuration: true } },
  });
  client.notify('initialized', {});
  client.notify('workspace/didChangeConfiguration', { settings: SETTINGS });
  return client;
}

async function open(client: LanguageClient, file: string, text: string): Promise<{ uri: string; messages: string[] }> {
  await writeFile(file, text);
  const uri = pathToFileURL(file).href;
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  const diagnostics = (await client.notification('textDocument/publishDiagnostics', (p: { uri: string }) => p.uri === uri)) as { diagnostics: { message: string }[] };
  return { uri, messages: diagnostics.diagnostics.map((d) => d.message) };
}

function labels(completion: unknown): string[] {
  const items = Array.isArray(completion) ? completion : ((completion as { items?: { label: string }[] } | null)?.items ?? []);
  return (items as { label: string }[]).map((i) => i.label);
}

describe('the schemas in an editor, offline', () => {
  it('give a flow test file and the config completion and a diagnostic for a typo, with no network', async () => {
    const { dir, cleanup } = await tempDir('roleflow-editor-');
    onTestFinished(cleanup);
    await mkdir(join(dir, 'flows'));
    const client = await startServer(dir);
    const schema = (name: string) => pathToFileURL(join(repoRoot, 'schemas', `${name}.schema.json`)).href;

    const flow = `# yaml-language-server: $schema=${schema('flow-test')}\nflow: summarize\ntests:\n  - name: one\n    inputs: { text: hi }\n    expcet: {}\n`;
    const opened = await open(client, join(dir, 'flows', 'a.yaml'), flow);
    expect(opened.messages.some((m) => /expcet/.test(m))).toBe(true);
    // Completion of a test's keys, on a new line under the first test.
    const withLine = `${flow.replace('    expcet: {}\n', '')}    \n`;
    client.notify('textDocument/didChange', { textDocument: { uri: opened.uri, version: 2 }, contentChanges: [{ text: withLine }] });
    const completion = await client.request('textDocument/completion', { textDocument: { uri: opened.uri }, position: { line: 5, character: 4 } });
    expect(labels(completion)).toEqual(expect.arrayContaining(['expect', 'repeat', 'timeout']));

    const config = `# yaml-language-server: $schema=${schema('config')}\ndefault_tenant: local\nrolse: { dir: roles }\n`;
    const configured = await open(client, join(dir, 'roleflow.config.yaml'), config);
    expect(configured.messages.some((m) => /rolse/.test(m))).toBe(true);
  });
});
