/**
 * A verdict that satisfies a judge's JSON Schema in the most favourable way: every property
 * filled, booleans true, numbers at their maximum, arrays with one item. Lets a fake model play
 * the judge of any metric without knowing its verdict shape.
 */
export function favourableVerdict(schema: Record<string, unknown>): Record<string, unknown> {
  const value = fill(schema);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function isSchema(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fill(schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      return Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [
          key,
          isSchema(property) ? fill(property) : null,
        ]),
      );
    }
    case 'array':
      return isSchema(schema.items) ? [fill(schema.items)] : [];
    case 'boolean':
      return true;
    case 'number':
    case 'integer':
      return typeof schema.maximum === 'number' ? schema.maximum : 1;
    case 'string':
      return 'the answer meets the criteria';
    default:
      return null;
  }
}
