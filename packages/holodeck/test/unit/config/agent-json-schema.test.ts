import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { isRecord } from 'yaml-diagnostics';
import { agentJsonSchema } from '../../../src/config/index.js';

const addFormats = addFormatsModule.default;

describe('agentJsonSchema', () => {
  const schema = agentJsonSchema();

  it('is a draft 2020-12 schema with a title and description', () => {
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'HoloDeck agent.yaml',
      description: 'An AI agent: model, instructions, tools, evaluations and test cases.',
      type: 'object',
      additionalProperties: false,
      required: ['name', 'model', 'instructions'],
    });
  });

  it('describes the claude block', () => {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const claude = isRecord(properties.claude) ? properties.claude : {};
    const claudeProperties = isRecord(claude.properties) ? Object.keys(claude.properties) : [];
    expect(claudeProperties).toEqual([
      'working_directory',
      'permission_mode',
      'acknowledge_accept_all',
      'max_turns',
      'extended_thinking',
      'web_search',
      'bash',
      'file_system',
      'subagents',
      'allowed_tools',
      'setting_sources',
    ]);
  });

  it('describes every field, so an editor can explain each key it completes', () => {
    const definitions = isRecord(schema.$defs) ? schema.$defs : {};
    const resolve = (node: Record<string, unknown>): Record<string, unknown> => {
      if (typeof node.$ref !== 'string') return node;
      const target = definitions[node.$ref.split('/').pop() ?? ''];
      return isRecord(target) ? { ...target, ...node } : node;
    };
    const fields: string[] = [];
    const undescribed: string[] = [];
    const walk = (value: unknown, at: string): void => {
      if (!isRecord(value)) return;
      const node = resolve(value);
      for (const [key, property] of Object.entries(isRecord(node.properties) ? node.properties : {})) {
        if (!isRecord(property)) continue;
        fields.push(`${at}.${key}`);
        if (typeof resolve(property).description !== 'string') undescribed.push(`${at}.${key}`);
        walk(property, `${at}.${key}`);
      }
      for (const variants of [node.anyOf, node.oneOf, node.allOf])
        if (Array.isArray(variants)) for (const variant of variants) walk(variant, at);
      walk(node.items, `${at}[]`);
      walk(node.additionalProperties, `${at}.*`);
    };
    walk(schema, '');
    expect(fields.length).toBeGreaterThan(600);
    expect([...new Set(undescribed)]).toEqual([]);
  });

  it('compiles with ajv and accepts a valid agent while rejecting an unknown key', () => {
    // The schema is ~230 KB with every definition inline; ajv's code optimisation passes (which
    // change the generated code's size, not what it accepts) more than double its compile time.
    const ajv = new Ajv2020({ strict: false, code: { optimize: false } });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const agent = {
      name: 'a',
      model: { provider: 'anthropic', name: 'claude-sonnet-4-5' },
      instructions: { inline: 'hi' },
      claude: { permission_mode: 'acceptEdits', bash: { enabled: true } },
      tools: [{ type: 'mcp', name: 'srv', description: 'd', command: 'npx' }],
    };
    expect(validate(agent)).toBe(true);
    expect(validate({ ...agent, claude: { permision_mode: 'manual' } })).toBe(false);
  });
});
