import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.js';
import { findAll, parseXml } from '../report/xml.js';
import { GREET_FAILING, suite } from './test-kit.js';

describe('every execution names itself', () => {
  it("the JSON report and the console's error lines carry the tenant's ids: flowId and executionId over HTTPS, connectionId and messageIds over WebSocket", async () => {
    const s = await suite({ 'flows/bad.yaml': GREET_FAILING });
    const r = await s.test(['--reporter', 'console', '--reporter', 'json=report.json', '--reporter', 'junit=junit.xml']);
    expect(r.code).toBe(3);
    const report = JSON.parse(await s.read('report.json')) as RunReport;
    const https = report.results.find((x) => x.transport === 'https')!.repeats[0]!;
    const ws = report.results.find((x) => x.transport === 'ws')!.repeats[0]!;
    expect(https.ids).toEqual({ flow_id: expect.any(String), execution_id: expect.any(String) });
    expect(ws.ids).toEqual({ connection_id: expect.any(String), message_ids: expect.arrayContaining([expect.any(String)]) });
    expect(ws.ids!.message_ids).toEqual(ws.messages.map((m) => m.message_id).filter((id, i, all) => id && all.indexOf(id) === i));
    // Each WebSocket message says when it came, in order.
    const at = ws.messages.map((m) => m.at_ms!);
    expect(at.every((ms, i) => ms >= 0 && (i === 0 || ms >= at[i - 1]!))).toBe(true);
    expect(r.stdout).toContain(`on the tenant: executionId ${https.ids!.execution_id}, flowId ${https.ids!.flow_id}`);
    // JUnit: each testcase's system-out (how it ended, its ids), and its failure's text.
    const cases = findAll(parseXml(await s.read('junit.xml')), 'testcase');
    const out = (c: (typeof cases)[number]) => findAll(c, 'system-out')[0]!.text;
    expect(out(cases[0]!)).toBe(`ended_by: until\non the tenant: executionId ${https.ids!.execution_id}, flowId ${https.ids!.flow_id}`);
    expect(out(cases[1]!)).toBe(`ended_by: until\non the tenant: connectionId ${ws.ids!.connection_id}, messageIds ${ws.ids!.message_ids!.join(' ')}`);
    expect(findAll(cases[0]!, 'property')).toEqual([]);
    expect(r.stdout).toContain(`on the tenant: connectionId ${ws.ids!.connection_id}, messageIds ${ws.ids!.message_ids!.join(' ')}`);
  });
});
