/**
 * JSON Schema of the emulator's flows file (`emulator-flows.yaml`). Kept as a TS object so the
 * emulator needs no file of its own at run time; the format is documented in that YAML's header.
 */
// The string form ("120ms", "1.5s") is checked in flows-config.ts, which can say it in words.
const latency = {
  description: 'Simulated duration of the step: "120ms", "1.5s", or a number of milliseconds',
  type: ['string', 'integer'],
  minimum: 0,
} as const;

const step = {
  type: 'object',
  additionalProperties: false,
  required: ['service'],
  properties: {
    service: { type: 'string', minLength: 1, description: 'Service name logged for this step' },
    latency,
    fail: { type: 'boolean', description: 'This step always fails' },
    fail_when: {
      type: 'object',
      description: 'Fails when the named input matches the regular expression',
      additionalProperties: { type: 'string' },
    },
    fail_status: { type: 'string', minLength: 1, description: 'Status logged when the step fails (default "failed")' },
  },
} as const;

const flow = {
  type: 'object',
  additionalProperties: false,
  required: ['steps', 'outputs'],
  properties: {
    flow_id: { type: 'string', minLength: 1 },
    identity: { type: 'string', minLength: 1 },
    inputs: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    steps: { type: 'array', minItems: 1, items: step },
    grade: {
      type: 'object',
      additionalProperties: false,
      required: ['text', 'rubric'],
      description: 'A deterministic judge: the share of the rubric input\'s words found in the text input; ${grade.pass}, ${grade.score}, ${grade.reason} in the outputs',
      properties: {
        text: { type: 'string', minLength: 1 },
        rubric: { type: 'string', minLength: 1 },
        pass_at: { type: 'number', minimum: 0, maximum: 1 },
      },
    },
    outputs: {
      type: 'object',
      additionalProperties: false,
      required: ['results'],
      properties: {
        results: {
          type: 'array',
          items: { oneOf: [{ type: 'object' }, { const: '${*}' }] },
        },
      },
    },
  },
} as const;

export const flowsConfigSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'roleflow emulator flows',
  type: 'object',
  additionalProperties: false,
  required: ['flows'],
  properties: {
    flows: {
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z0-9._-]+$' },
      additionalProperties: flow,
    },
  },
} as const;
