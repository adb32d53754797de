import { NovarchStoreError } from './novarch-store-error.js';

/** Serialises a value for a JSON text column; `undefined` becomes SQL NULL so it reads back as such. */
export function toJsonColumn(value: unknown, what: string): string | null {
  if (value === undefined) return null;
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new NovarchStoreError(`Cannot store ${what}: it is not JSON-serialisable (${String(error)}).`, {
      cause: error,
    });
  }
}

/** Parses a JSON text column; NULL reads back as `undefined`. The result is checked by the caller's zod schema. */
export function fromJsonColumn(text: string | null, what: string): unknown {
  if (text === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch (error) {
    throw new NovarchStoreError(`Stored ${what} is not valid JSON; the store file is damaged.`, {
      cause: error,
    });
  }
}
