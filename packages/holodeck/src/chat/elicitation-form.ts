import type { ElicitationValue } from '../backends/contract/index.js';
import { isRecord } from '../support.js';

/** One field of an MCP elicitation form, as the chat asks for it. */
export type FormField = {
  name: string;
  /** The schema's `title` (else the name) and `description`, as the server wrote them. */
  label: string;
  description?: string;
  required: boolean;
  default?: ElicitationValue;
} & (
  | { kind: 'string'; minLength?: number; maxLength?: number; format?: StringFormat }
  | { kind: 'number'; integer: boolean; minimum?: number; maximum?: number }
  | { kind: 'boolean' }
  | { kind: 'choice'; options: FormOption[] }
  | { kind: 'choices'; options: FormOption[]; minItems?: number; maxItems?: number }
);

/** An option of an enum field: the value sent, and the title shown. */
export interface FormOption {
  value: string;
  title: string;
}

type StringFormat = 'email' | 'uri' | 'date' | 'date-time';
const FORMATS: readonly StringFormat[] = ['email', 'uri', 'date', 'date-time'];

function isFormat(value: string): value is StringFormat {
  return FORMATS.some((format) => format === value);
}

/** A form the chat can ask, or why it cannot (the request is then declined). */
export type ParsedForm = { ok: true; fields: FormField[] } | { ok: false; problem: string };

const FLAT = 'MCP forms have flat fields: string, number, integer, boolean, or an enum of strings';

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `enum` (+ legacy `enumNames`) or `oneOf`/`anyOf` of `{ const, title }`: the options, or undefined. */
function optionsOf(schema: Record<string, unknown>): FormOption[] | undefined {
  if (Array.isArray(schema.enum)) {
    if (!schema.enum.every((value) => typeof value === 'string')) return undefined;
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, index) => ({ value, title: text(names[index]) ?? value }));
  }
  const list = Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : undefined;
  if (!list) return undefined;
  const options: FormOption[] = [];
  for (const entry of list) {
    if (!isRecord(entry) || typeof entry.const !== 'string') return undefined;
    options.push({ value: entry.const, title: text(entry.title) ?? entry.const });
  }
  return options;
}

function parseField(name: string, schema: unknown, required: boolean): FormField | string {
  if (!isRecord(schema)) return `field "${name}" has no schema object`;
  const base = {
    name,
    label: text(schema.title) ?? name,
    ...(text(schema.description) ? { description: text(schema.description) } : {}),
    required,
  };
  const options = optionsOf(schema);
  const fallback = schema.default;
  switch (schema.type) {
    case 'string': {
      if (options) {
        if (!options.length) return `field "${name}" is an enum without options`;
        return {
          ...base,
          kind: 'choice',
          options,
          ...(typeof fallback === 'string' ? { default: fallback } : {}),
        };
      }
      const format = text(schema.format);
      if (format !== undefined && !isFormat(format))
        return `field "${name}" has format "${format}", which the chat cannot check (it knows ${FORMATS.join(', ')})`;
      const minLength = numberOf(schema.minLength);
      const maxLength = numberOf(schema.maxLength);
      return {
        ...base,
        kind: 'string',
        ...(minLength !== undefined ? { minLength } : {}),
        ...(maxLength !== undefined ? { maxLength } : {}),
        ...(format !== undefined ? { format } : {}),
        ...(typeof fallback === 'string' ? { default: fallback } : {}),
      };
    }
    case 'number':
    case 'integer': {
      const minimum = numberOf(schema.minimum);
      const maximum = numberOf(schema.maximum);
      return {
        ...base,
        kind: 'number',
        integer: schema.type === 'integer',
        ...(minimum !== undefined ? { minimum } : {}),
        ...(maximum !== undefined ? { maximum } : {}),
        ...(numberOf(fallback) !== undefined ? { default: numberOf(fallback) } : {}),
      };
    }
    case 'boolean':
      return { ...base, kind: 'boolean', ...(typeof fallback === 'boolean' ? { default: fallback } : {}) };
    case 'array': {
      const items = isRecord(schema.items) ? optionsOf(schema.items) : undefined;
      if (!items?.length) return `field "${name}" is a list of something other than string options; ${FLAT}`;
      const minItems = numberOf(schema.minItems);
      const maxItems = numberOf(schema.maxItems);
      return {
        ...base,
        kind: 'choices',
        options: items,
        ...(minItems !== undefined ? { minItems } : {}),
        ...(maxItems !== undefined ? { maxItems } : {}),
        ...(Array.isArray(fallback) && fallback.every((value) => typeof value === 'string')
          ? { default: fallback }
          : {}),
      };
    }
    default:
      return `field "${name}" is ${typeof schema.type === 'string' ? `of type "${schema.type}"` : 'without a type'}; ${FLAT}`;
  }
}

/** The fields of an elicitation's `requestedSchema`, or the reason the chat cannot ask them. */
export function parseElicitationForm(schema: Record<string, unknown> | undefined): ParsedForm {
  if (!schema) return { ok: true, fields: [] };
  if (schema.type !== undefined && schema.type !== 'object')
    return { ok: false, problem: `the form's schema is of type "${String(schema.type)}", not an object` };
  const properties = schema.properties ?? {};
  if (!isRecord(properties)) return { ok: false, problem: 'the form\'s "properties" is not an object' };
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name) => typeof name === 'string')
    : [];
  const fields: FormField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const field = parseField(name, property, required.includes(name));
    if (typeof field === 'string') return { ok: false, problem: field };
    fields.push(field);
  }
  const unknown = required.filter((name) => !(name in properties));
  if (unknown.length)
    return { ok: false, problem: `the form requires "${unknown.join('", "')}", which it does not describe` };
  return { ok: true, fields };
}

/** What the user typed for a field: its value, nothing (an optional field skipped), or what is wrong. */
export type FieldAnswer =
  | { kind: 'value'; value: ElicitationValue }
  | { kind: 'skip' }
  | { kind: 'invalid'; problem: string };

/** A short hint of what a field takes, shown in its prompt. */
export function fieldHint(field: FormField): string {
  const parts: string[] = [];
  switch (field.kind) {
    case 'string':
      if (field.format) parts.push(field.format === 'date' ? 'date YYYY-MM-DD' : field.format);
      if (field.minLength !== undefined || field.maxLength !== undefined)
        parts.push(`${field.minLength ?? 0}–${field.maxLength ?? '∞'} characters`);
      break;
    case 'number':
      parts.push(field.integer ? 'whole number' : 'number');
      if (field.minimum !== undefined || field.maximum !== undefined)
        parts.push(`${field.minimum ?? '−∞'}–${field.maximum ?? '∞'}`);
      break;
    case 'boolean':
      parts.push('y/n');
      break;
    case 'choice':
      parts.push('a number or a value');
      break;
    case 'choices':
      parts.push('numbers or values, separated by commas');
      break;
  }
  if (field.default !== undefined) parts.push(`Enter for ${JSON.stringify(field.default)}`);
  else parts.push(field.required ? 'required' : 'optional: Enter skips');
  return parts.join(', ');
}

function checkFormat(format: StringFormat, value: string): boolean {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
    case 'uri':
      return /^[a-z][a-z0-9+.-]*:/i.test(value) && URL.canParse(value);
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
  }
}

function pickOption(options: readonly FormOption[], typed: string): string | undefined {
  const index = /^\d+$/.test(typed) ? Number(typed) - 1 : -1;
  if (index >= 0 && index < options.length) return options[index]?.value;
  const lower = typed.toLowerCase();
  return options.find((option) => option.value === typed || option.title.toLowerCase() === lower)?.value;
}

/** Reads what the user typed for one field against its schema. */
export function readFieldAnswer(field: FormField, typed: string): FieldAnswer {
  const input = typed.trim();
  if (!input) {
    if (field.default !== undefined) return { kind: 'value', value: field.default };
    return field.required ? { kind: 'invalid', problem: `${field.label} is required` } : { kind: 'skip' };
  }
  switch (field.kind) {
    case 'string': {
      const length = [...input].length;
      if (field.minLength !== undefined && length < field.minLength)
        return {
          kind: 'invalid',
          problem: `${field.label} needs at least ${field.minLength} characters (got ${length})`,
        };
      if (field.maxLength !== undefined && length > field.maxLength)
        return {
          kind: 'invalid',
          problem: `${field.label} takes at most ${field.maxLength} characters (got ${length})`,
        };
      if (field.format && !checkFormat(field.format, input))
        return {
          kind: 'invalid',
          problem: `${field.label} must be ${field.format === 'date' ? 'a date as YYYY-MM-DD' : field.format === 'date-time' ? 'a date and time as YYYY-MM-DDTHH:MM' : field.format === 'uri' ? 'a URI such as https://example.com' : 'an email address'}`,
        };
      return { kind: 'value', value: input };
    }
    case 'number': {
      const value = Number(input);
      if (!Number.isFinite(value) || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(input))
        return {
          kind: 'invalid',
          problem: `${field.label} must be a ${field.integer ? 'whole number' : 'number'} (got "${input}")`,
        };
      if (field.integer && !Number.isInteger(value))
        return { kind: 'invalid', problem: `${field.label} must be a whole number (got ${input})` };
      if (field.minimum !== undefined && value < field.minimum)
        return {
          kind: 'invalid',
          problem: `${field.label} must be at least ${field.minimum} (got ${input})`,
        };
      if (field.maximum !== undefined && value > field.maximum)
        return { kind: 'invalid', problem: `${field.label} must be at most ${field.maximum} (got ${input})` };
      return { kind: 'value', value };
    }
    case 'boolean': {
      const lower = input.toLowerCase();
      if (['y', 'yes', 'true'].includes(lower)) return { kind: 'value', value: true };
      if (['n', 'no', 'false'].includes(lower)) return { kind: 'value', value: false };
      return { kind: 'invalid', problem: `${field.label} takes y or n (got "${input}")` };
    }
    case 'choice': {
      const value = pickOption(field.options, input);
      return value === undefined
        ? {
            kind: 'invalid',
            problem: `${field.label} takes one of the options 1–${field.options.length} (got "${input}")`,
          }
        : { kind: 'value', value };
    }
    case 'choices': {
      const picked: string[] = [];
      for (const part of input
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)) {
        const value = pickOption(field.options, part);
        if (value === undefined)
          return {
            kind: 'invalid',
            problem: `${field.label}: "${part}" is not one of the options 1–${field.options.length}`,
          };
        if (!picked.includes(value)) picked.push(value);
      }
      if (field.minItems !== undefined && picked.length < field.minItems)
        return {
          kind: 'invalid',
          problem: `${field.label} needs at least ${field.minItems} option(s) (got ${picked.length})`,
        };
      if (field.maxItems !== undefined && picked.length > field.maxItems)
        return {
          kind: 'invalid',
          problem: `${field.label} takes at most ${field.maxItems} option(s) (got ${picked.length})`,
        };
      return { kind: 'value', value: picked };
    }
  }
}
