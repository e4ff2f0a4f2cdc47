import { describe, expect, it } from 'vitest';
import { loadFlowsConfig, type FlowsConfig, type RunningEmulator } from '../../src/emulator/index.js';
import { call, emulatorPerFile } from '../helpers/emulator.js';
import { exchange, open, receive, type Msg } from '../helpers/ws.js';

// Flows that use the tenant's Roles: a step's `role:` and `${role.NAME.field}` in the outputs.
const flows: FlowsConfig = {
  flows: {
    write: {
      steps: [
        { service: 'retriever', latency: '10ms' },
        { service: 'llm', latency: '150ms', role: 'writer' },
        { service: 'formatter', latency: '10ms' },
      ],
      outputs: { results: [{ text: '${role.writer.description}: ${topic}', prompt: '${role.writer.content}' }] },
    },
    // The Role is named only by the outputs: the last step needs it.
    sign: {
      steps: [{ service: 'draft', latency: '10ms' }, { service: 'signer', latency: '10ms' }],
      outputs: { results: [{ signature: '${role.signer.description}' }] },
    },
  },
};

type Entry = Record<string, unknown>;

async function createRole(e: RunningEmulator, name: string, description: string, content: string): Promise<string> {
  const reply = await call(e, 'POST', '/admin/roles/create', { body: { name, description, content } });
  expect(reply.status).toBe(200);
  return (reply.body as { id: string }).id;
}

async function updateRole(e: RunningEmulator, id: string, name: string, description: string, content: string): Promise<void> {
  expect((await call(e, 'POST', '/admin/roles/update', { body: { id, name, description, content } })).status).toBe(200);
}

async function deleteRole(e: RunningEmulator, id: string): Promise<void> {
  expect((await call(e, 'POST', '/admin/policies/delete', { body: { id } })).status).toBe(200);
}

/** Start over HTTPS, then poll until the log holds `count` entries or a failed one. */
async function runHttps(e: RunningEmulator, flow: string, inputs: object, between?: () => Promise<void>): Promise<Entry[]> {
  const started = await call(e, 'POST', `/flow/${flow}`, { body: inputs });
  expect(started.status).toBe(200);
  const { executionId } = started.body as { executionId: string };
  await between?.();
  for (;;) {
    const reply = await call(e, 'POST', '/admin/stats', { body: { execution_id: executionId, opCode: 'exec_logs' } });
    const entries = reply.body as Entry[];
    if (entries.length === flows.flows[flow]!.steps.length || entries.some((x) => x['status'] !== 'completed')) return entries;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The completed messages of one WebSocket execution (after its ack), until the last node or a failure. */
async function runWs(e: RunningEmulator, flow: string, inputs: object, between?: () => Promise<void>): Promise<Msg[]> {
  const ws = await open(e);
  try {
    const [ack] = await exchange(ws, { action: 'message', service: flow, ...inputs }, 1);
    expect(ack).toMatchObject({ state: 'ack' });
    await between?.();
    const messages: Msg[] = [];
    const last = `node-${flows.flows[flow]!.steps.length}`;
    while (messages.at(-1)?.['nodeId'] !== last && messages.at(-1)?.['statusCode'] !== '500') messages.push(...(await receive(ws, 1)));
    return messages;
  } finally {
    ws.close();
  }
}

const payload = (m: Msg | undefined): { outputs: { results: Entry[] }; error?: string } => JSON.parse(m!['message']!) as never;

describe('emulator: flows that use the tenant\'s Roles', () => {
  const emulator = emulatorPerFile({ flows });

  it('fails the step that names an absent Role, saying which and what to do, over both transports', async () => {
    const entries = await runHttps(emulator(), 'write', { topic: 'refunds' });
    expect(entries.map((x) => [x['service'], x['status']])).toEqual([
      ['retriever', 'completed'],
      ['llm', 'failed'],
    ]);
    expect(entries[1]!['error']).toBe('Role "writer" not found on the tenant (used by step "llm"): apply the role files first (roleflow apply)');
    expect(entries[0]).not.toHaveProperty('error');

    const messages = await runWs(emulator(), 'write', { topic: 'refunds' });
    expect(messages.map((m) => [m['nodeId'], m['statusCode']])).toEqual([
      ['node-1', '200'],
      ['node-2', '500'],
    ]);
    expect(payload(messages[1]).error).toBe(entries[1]!['error']);
  });

  it("puts the Role's fields into the outputs, and a changed Role into the next execution's", async () => {
    const e = emulator();
    const id = await createRole(e, 'writer', 'Short and plain', 'Write $& briefly.\nNo jargon.');
    try {
      const entries = await runHttps(e, 'write', { topic: 'refunds' });
      expect(entries.map((x) => x['status'])).toEqual(['completed', 'completed', 'completed']);
      const first = await runWs(e, 'write', { topic: 'refunds' });
      expect(payload(first.at(-1)).outputs).toEqual({ results: [{ text: 'Short and plain: refunds', prompt: 'Write $& briefly.\nNo jargon.' }] });

      await updateRole(e, id, 'writer', 'Long and formal', 'Write at length.');
      const second = await runWs(e, 'write', { topic: 'refunds' });
      expect(payload(second.at(-1)).outputs).toEqual({ results: [{ text: 'Long and formal: refunds', prompt: 'Write at length.' }] });
    } finally {
      await deleteRole(e, id);
    }
  });

  it('reads the Roles once, as an execution starts: a change while it runs does not reach it', async () => {
    const e = emulator();
    const id = await createRole(e, 'writer', 'Before', 'before');
    let renamed = false;
    try {
      // Deleted (here: renamed away) after the start: the step that names it still completes.
      const entries = await runHttps(e, 'write', { topic: 't' }, async () => {
        await updateRole(e, id, 'someone-else', 'After', 'after');
        renamed = true;
      });
      expect(entries.map((x) => x['status'])).toEqual(['completed', 'completed', 'completed']);
      await updateRole(e, id, 'writer', 'Before', 'before');
      // Changed after the ack: the last node still reports what the execution read at its start.
      const messages = await runWs(e, 'write', { topic: 't' }, () => updateRole(e, id, 'writer', 'After', 'after'));
      expect(payload(messages.at(-1)).outputs.results[0]).toEqual({ text: 'Before: t', prompt: 'before' });
    } finally {
      expect(renamed).toBe(true);
      await deleteRole(e, id);
    }
    // Created after the start of an execution that lacked it: that execution still fails.
    let created: string | undefined;
    const late = await runWs(e, 'write', { topic: 't' }, async () => {
      created = await createRole(e, 'writer', 'Late', 'late');
    });
    expect(late.at(-1)).toMatchObject({ nodeId: 'node-2', statusCode: '500' });
    await deleteRole(e, created!);
  });

  it('fails the last step when only the outputs name an absent Role; of two Roles with one name, uses the first created', async () => {
    const e = emulator();
    const entries = await runHttps(e, 'sign', {});
    expect(entries.map((x) => [x['service'], x['status']])).toEqual([
      ['draft', 'completed'],
      ['signer', 'failed'],
    ]);
    expect(entries[1]!['error']).toBe('Role "signer" not found on the tenant (used by the outputs of flow "sign"): apply the role files first (roleflow apply)');

    const first = await createRole(e, 'signer', 'The first', '');
    const second = await createRole(e, 'signer', 'The second', '');
    try {
      const messages = await runWs(e, 'sign', {});
      expect(payload(messages.at(-1)).outputs).toEqual({ results: [{ signature: 'The first' }] });
    } finally {
      await deleteRole(e, first);
      await deleteRole(e, second);
    }
  });
});

describe('emulator: Role names in a flows file', () => {
  it('refuses a ${role.…} other than content or description, and a step role that is no name, at their lines', () => {
    const text = [
      'flows:',
      '  f:',
      '    steps:',
      '      - { service: a, role: "bad name" }',
      '    outputs:',
      '      results:',
      '        - { a: "${role.writer.other}", b: "${role.writer}", c: "${role.-x.content}", d: "${role.ok.content} ${name}" }',
      '',
    ].join('\n');
    const loaded = loadFlowsConfig(text, 'flows.yaml');
    expect(loaded.ok).toBe(false);
    const lines = loaded.ok ? [] : loaded.issues.map((i) => `${i.file}:${i.line}:${i.col}: ${i.message}`);
    expect(lines).toEqual([
      expect.stringMatching(/^flows\.yaml:4:29: flows\.f\.steps\[0\]\.role: must match pattern/),
      'flows.yaml:7:16: flows.f.outputs.results[0].a: ${role.writer.other}: a Role has no field "other"; use content or description',
      'flows.yaml:7:43: flows.f.outputs.results[0].b: ${role.writer}: expected ${role.NAME.content} or ${role.NAME.description}',
      'flows.yaml:7:64: flows.f.outputs.results[0].c: ${role.-x.content}: "-x" is not a Role name a flow can use (letters, digits, ".", "_", "-")',
    ]);
  });
});
