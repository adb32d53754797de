import { closestMatch } from 'yaml-diagnostics';
import { UsageError } from '../errors.js';
import type { InitTemplate } from './init-template.js';
import { conversationalTemplate } from './templates/conversational-template.js';
import { customerSupportTemplate } from './templates/customer-support-template.js';
import { docsAssistantTemplate } from './templates/docs-assistant-template.js';
import { providerTemplates } from './templates/provider-templates.js';

/** Every template `holodeck init` knows, in the order `--list` and the prompt show them. */
export const INIT_TEMPLATES: readonly InitTemplate[] = [
  conversationalTemplate,
  customerSupportTemplate,
  docsAssistantTemplate,
  ...providerTemplates,
];

/** The template named by `--template`; an unknown name is a UsageError with a did-you-mean. */
export function findTemplate(name: string): InitTemplate {
  const found = INIT_TEMPLATES.find((template) => template.name === name);
  if (found) return found;
  const names = INIT_TEMPLATES.map((template) => template.name);
  const guess = closestMatch(name, names);
  throw new UsageError(
    '--template',
    `there is no template "${name}"${guess ? `; did you mean "${guess}"?` : ''}`,
    `one of ${names.join(', ')} (holodeck init --list describes them)`,
  );
}
