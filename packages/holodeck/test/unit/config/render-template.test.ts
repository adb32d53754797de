import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../../src/config/render-template.js';

describe('the case template language', () => {
  const vars = { city: 'Lyon', order: { id: 'A-7', items: ['tea', 'cup'] }, count: 3, ok: true };

  it('substitutes variables, keys, items, literals and filters', () => {
    expect(
      renderTemplate(
        'Ship {{ order.id }} ({{order.items[1]}}) to {{ city | upper }} x{{count}} {{ok}} {{ "{{" }}raw}}',
        vars,
      ),
    ).toEqual({ ok: true, text: 'Ship A-7 (cup) to LYON x3 true {{raw}}' });
    expect(renderTemplate('{{ order | json }}', vars)).toEqual({
      ok: true,
      text: '{"id":"A-7","items":["tea","cup"]}',
    });
    expect(renderTemplate('{{ order.items }} {{ " Pad " | trim | lower }}', vars)).toEqual({
      ok: true,
      text: '["tea","cup"] pad',
    });
    expect(renderTemplate('no placeholders }} here', vars)).toEqual({
      ok: true,
      text: 'no placeholders }} here',
    });
  });

  it('names a missing variable and the ones the case has', () => {
    expect(renderTemplate('to {{ town }}', vars)).toEqual({
      ok: false,
      problem: {
        message: '{{ town }} names variable "town", which the case does not set',
        hint: "add town to the case's vars (or to default_case.vars); the case's vars are city, order, count, ok",
        offset: 3,
      },
    });
    expect(renderTemplate('{{ order.sku }}', vars)).toEqual({
      ok: false,
      problem: {
        message: '{{ order.sku }}: variable "order" has no .sku',
        hint: "add order to the case's vars (or to default_case.vars); the case's vars are city, order, count, ok",
        offset: 0,
      },
    });
    expect(renderTemplate('{{ x }}', {})).toMatchObject({
      problem: { hint: "add x to the case's vars (or to default_case.vars); the case sets no vars" },
    });
  });

  it('runs no code: expressions, unknown filters and unclosed braces are errors', () => {
    expect(renderTemplate('{{ process.exit(1) }}', vars)).toEqual({
      ok: false,
      problem: {
        message: '{{ process.exit(1) }} is not a variable name',
        hint: 'a placeholder holds a variable (name, name.key, name[0]) or a "quoted text", then | filters; templates run no code',
        offset: 0,
      },
    });
    expect(renderTemplate('{{ constructor }}', vars)).toMatchObject({
      problem: { message: '{{ constructor }} names variable "constructor", which the case does not set' },
    });
    expect(renderTemplate('{{ city | shout }}', vars)).toEqual({
      ok: false,
      problem: {
        message: '{{ city | shout }} uses unknown filter "shout"',
        hint: 'the filters are upper, lower, trim, json',
        offset: 0,
      },
    });
    expect(renderTemplate('Hello {{ city', vars)).toEqual({
      ok: false,
      problem: {
        message: '"{{" at character 7 is never closed with "}}"',
        hint: 'close the placeholder, or write a literal {{ as {{ "{{" }}',
        offset: 6,
      },
    });
  });
});
