import { describe, expect, it } from 'vitest';
import { flowsConfigSchema } from '../../src/emulator/flows-config.schema.js';
import { ROLE_NAME_PATTERN } from '../../src/emulator/store/role-refs.js';
import { loadFlowsConfig } from '../../src/emulator/flows-config.js';
import { readFileSync } from 'node:fs';
import { repoRoot } from '../helpers/cli.js';

describe('the emulator flows schema (schemas/emulator-flows.schema.json)', () => {
  it('names Roles as the flows file reads them, and accepts the built-in flows', () => {
    const step = (flowsConfigSchema as { properties: { flows: { additionalProperties: { properties: { steps: { items: { properties: { role: { pattern: string } } } } } } } } }).properties.flows.additionalProperties.properties.steps.items.properties.role;
    expect(step.pattern).toBe(ROLE_NAME_PATTERN);
    const builtIn = readFileSync(`${repoRoot}emulator-flows.yaml`, 'utf8');
    expect(loadFlowsConfig(builtIn, 'emulator-flows.yaml').ok).toBe(true);
  });
});
