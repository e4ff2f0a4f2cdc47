/**
 * JSON Schema of the emulator's flows file (`emulator-flows.yaml`): schemas/emulator-flows.schema.json,
 * which editors use too; as every schema of schemas/, the built CLI holds it as a validator
 * generated at build time, so loading a flows file compiles no schema. The format is documented
 * in that YAML's header.
 */
import schema from '../../schemas/emulator-flows.schema.json' with { type: 'json' };

export const flowsConfigSchema: object = schema;
