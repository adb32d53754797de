import { describe, expect, it } from 'vitest';
import {
  type FormField,
  fieldHint,
  parseElicitationForm,
  readFieldAnswer,
} from '../../../src/chat/elicitation-form.js';

const fieldsOf = (schema: Record<string, unknown>): FormField[] => {
  const form = parseElicitationForm(schema);
  if (!form.ok) throw new Error(form.problem);
  return form.fields;
};
const field = (property: Record<string, unknown>, required = true): FormField => {
  const [only] = fieldsOf({
    type: 'object',
    properties: { x: property },
    ...(required ? { required: ['x'] } : {}),
  });
  if (!only) throw new Error('no field');
  return only;
};

describe('MCP elicitation forms in the terminal chat', () => {
  it('reads every MCP field kind, titles and options included', () => {
    const fields = fieldsOf({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', minLength: 2 },
        guests: { type: 'integer', minimum: 1, maximum: 12 },
        vegan: { type: 'boolean', default: false },
        seat: {
          type: 'string',
          oneOf: [
            { const: 'in', title: 'Inside' },
            { const: 'out', title: 'Terrace' },
          ],
        },
        legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] },
        extras: { type: 'array', items: { type: 'string', enum: ['wine', 'cake'] }, maxItems: 1 },
      },
      required: ['name'],
    });
    expect(fields.map((entry) => [entry.name, entry.kind, entry.required])).toEqual([
      ['name', 'string', true],
      ['guests', 'number', false],
      ['vegan', 'boolean', false],
      ['seat', 'choice', false],
      ['legacy', 'choice', false],
      ['extras', 'choices', false],
    ]);
    expect(fields.map(fieldHint)).toEqual([
      '2–∞ characters, required',
      'whole number, 1–12, optional: Enter skips',
      'y/n, Enter for false',
      'a number or a value, optional: Enter skips',
      'a number or a value, optional: Enter skips',
      'numbers or values, separated by commas, optional: Enter skips',
    ]);
  });

  it('says why a schema cannot be shown as a form', () => {
    const problem = (schema: Record<string, unknown>) => {
      const form = parseElicitationForm(schema);
      return form.ok ? 'ok' : form.problem;
    };
    expect(problem({ type: 'object', properties: { address: { type: 'object' } } })).toBe(
      'field "address" is of type "object"; MCP forms have flat fields: string, number, integer, boolean, or an enum of strings',
    );
    expect(problem({ type: 'array' })).toBe('the form\'s schema is of type "array", not an object');
    expect(problem({ type: 'object', properties: { host: { type: 'string', format: 'hostname' } } })).toBe(
      'field "host" has format "hostname", which the chat cannot check (it knows email, uri, date, date-time)',
    );
    expect(problem({ type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'zip'] })).toBe(
      'the form requires "zip", which it does not describe',
    );
    expect(
      problem({ type: 'object', properties: { tags: { type: 'array', items: { type: 'number' } } } }),
    ).toBe(
      'field "tags" is a list of something other than string options; MCP forms have flat fields: string, number, integer, boolean, or an enum of strings',
    );
    expect(problem({ type: 'object', properties: { n: { description: 'no type' } } })).toMatch(
      /^field "n" is without a type/,
    );
  });

  it('checks each answer and says exactly what is wrong', () => {
    const check = (property: Record<string, unknown>, typed: string, required = true) =>
      readFieldAnswer(field({ title: 'X', ...property }, required), typed);
    expect(check({ type: 'integer', minimum: 1 }, 'two')).toEqual({
      kind: 'invalid',
      problem: 'X must be a whole number (got "two")',
    });
    expect(check({ type: 'integer' }, '2.5')).toEqual({
      kind: 'invalid',
      problem: 'X must be a whole number (got 2.5)',
    });
    expect(check({ type: 'number', maximum: 3 }, '4')).toEqual({
      kind: 'invalid',
      problem: 'X must be at most 3 (got 4)',
    });
    expect(check({ type: 'number', minimum: 0 }, '-1')).toEqual({
      kind: 'invalid',
      problem: 'X must be at least 0 (got -1)',
    });
    expect(check({ type: 'number' }, '0x10')).toEqual({
      kind: 'invalid',
      problem: 'X must be a number (got "0x10")',
    });
    expect(check({ type: 'number' }, '2.5')).toEqual({ kind: 'value', value: 2.5 });
    expect(check({ type: 'string', minLength: 3 }, 'ab')).toEqual({
      kind: 'invalid',
      problem: 'X needs at least 3 characters (got 2)',
    });
    expect(check({ type: 'string', maxLength: 2 }, 'abc')).toEqual({
      kind: 'invalid',
      problem: 'X takes at most 2 characters (got 3)',
    });
    expect(check({ type: 'string', format: 'email' }, 'me@')).toEqual({
      kind: 'invalid',
      problem: 'X must be an email address',
    });
    expect(check({ type: 'string', format: 'date' }, '2026-02-30x')).toEqual({
      kind: 'invalid',
      problem: 'X must be a date as YYYY-MM-DD',
    });
    expect(check({ type: 'string', format: 'uri' }, 'not a uri')).toEqual({
      kind: 'invalid',
      problem: 'X must be a URI such as https://example.com',
    });
    expect(check({ type: 'string', format: 'uri' }, 'https://example.com/a')).toEqual({
      kind: 'value',
      value: 'https://example.com/a',
    });
    expect(check({ type: 'boolean' }, 'maybe')).toEqual({
      kind: 'invalid',
      problem: 'X takes y or n (got "maybe")',
    });
    expect(check({ type: 'boolean' }, 'Yes')).toEqual({ kind: 'value', value: true });
    expect(check({ type: 'string' }, '  ')).toEqual({ kind: 'invalid', problem: 'X is required' });
    expect(check({ type: 'string' }, '', false)).toEqual({ kind: 'skip' });
    expect(check({ type: 'string', default: 'd' }, '')).toEqual({ kind: 'value', value: 'd' });
  });

  it('takes options by number, value or title', () => {
    const seat = field({
      type: 'string',
      oneOf: [
        { const: 'in', title: 'Inside' },
        { const: 'out', title: 'Terrace' },
      ],
    });
    expect(readFieldAnswer(seat, '2')).toEqual({ kind: 'value', value: 'out' });
    expect(readFieldAnswer(seat, 'in')).toEqual({ kind: 'value', value: 'in' });
    expect(readFieldAnswer(seat, 'terrace')).toEqual({ kind: 'value', value: 'out' });
    expect(readFieldAnswer(seat, '3')).toEqual({
      kind: 'invalid',
      problem: 'x takes one of the options 1–2 (got "3")',
    });
    const extras = field({
      type: 'array',
      items: { type: 'string', enum: ['wine', 'cake', 'tea'] },
      minItems: 1,
      maxItems: 2,
    });
    expect(readFieldAnswer(extras, '1, cake, 1')).toEqual({ kind: 'value', value: ['wine', 'cake'] });
    expect(readFieldAnswer(extras, '1,2,3')).toEqual({
      kind: 'invalid',
      problem: 'x takes at most 2 option(s) (got 3)',
    });
    expect(readFieldAnswer(extras, 'beer')).toEqual({
      kind: 'invalid',
      problem: 'x: "beer" is not one of the options 1–3',
    });
  });
});
