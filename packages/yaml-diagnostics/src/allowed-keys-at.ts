import { z } from 'zod';
import { getAtPath, isRecord } from './raw-value.js';

type AnySchema = z.core.$ZodType;

/**
 * The keys a strict mapping accepts at `path`, found by walking the schema alongside the data
 * (the data picks the branch of a discriminated union, e.g. the tool `type`). Used for did-you-mean.
 */
export function allowedKeysAt(schema: AnySchema, data: unknown, path: readonly PropertyKey[]): string[] {
  let current: AnySchema | undefined = schema;
  for (const [index, segment] of path.entries()) {
    current = unwrap(current, getAtPath(data, path.slice(0, index)));
    if (current instanceof z.ZodObject && typeof segment === 'string') current = current.shape[segment];
    else if (current instanceof z.ZodArray) current = current.element;
    else if (current instanceof z.ZodRecord) current = current.valueType;
    else return [];
    if (current === undefined) return [];
  }
  const target = unwrap(current, getAtPath(data, path));
  return target instanceof z.ZodObject ? Object.keys(target.shape) : [];
}

/** Sees through optional/default/pipe wrappers and picks the union branch that fits `value`. */
function unwrap(schema: AnySchema, value: unknown): AnySchema {
  let current = schema;
  for (;;) {
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodNullable
    ) {
      current = current.unwrap();
    } else if (current instanceof z.ZodPipe) {
      current = current.in;
    } else if (current instanceof z.ZodDiscriminatedUnion) {
      const discriminator = current.def.discriminator;
      const wanted = isRecord(value) ? value[discriminator] : undefined;
      const match = current.options.find(
        (option) => option instanceof z.ZodObject && literalMatches(option.shape[discriminator], wanted),
      );
      if (!match) return current;
      current = match;
    } else if (current instanceof z.ZodUnion) {
      const match = current.options.find((option) =>
        isRecord(value) ? option instanceof z.ZodObject : false,
      );
      if (!match) return current;
      current = match;
    } else {
      return current;
    }
  }
}

function literalMatches(schema: AnySchema | undefined, wanted: unknown): boolean {
  return schema instanceof z.ZodLiteral && [...schema.values].some((literal) => literal === wanted);
}
