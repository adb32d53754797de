import { access } from 'node:fs/promises';
import { NovarchConfigError } from '../errors.js';
import { type NovarchConfig, NovarchConfigSchema, toNovarchConfig } from './novarch-config.js';
import type { FieldIssue } from './yaml/field-issue.js';
import { mapZodIssues } from './yaml/map-zod-issues.js';
import { locateIssues, readYamlFile } from './yaml/read-yaml-file.js';

const WHAT = {
  noun: 'Novarch configuration file',
  example:
    'keys: hold_window_seconds (default 300), judge: {provider: anthropic, model}, store: {path, redact, replace_default_redactions, max_stored_bytes}, rules: [files], server: {listen, store_url, tenants}',
};

/**
 * Loads the deployment's configuration (YAML). Throws a NovarchConfigError listing every problem
 * at once: malformed YAML, unknown or missing fields, bad values, rules files that do not exist.
 * Relative paths are relative to the configuration file; `~` is the home directory.
 */
export async function loadNovarchConfig(
  file: string,
  options: { homeDirectory?: string } = {},
): Promise<NovarchConfig> {
  const read = await readYamlFile(file, WHAT);
  if (!read.ok) throw new NovarchConfigError(read.issues);
  const { yaml } = read;
  const parsed = NovarchConfigSchema.safeParse(yaml.data);
  const issues: FieldIssue[] = [...yaml.duplicateKeys];
  if (!parsed.success) issues.push(...mapZodIssues(parsed.error.issues, NovarchConfigSchema, yaml.data));
  const config = parsed.success ? toNovarchConfig(parsed.data, yaml.file, options.homeDirectory) : undefined;
  if (config) {
    const missing = await Promise.all(config.rules.map((rulesFile) => isMissing(rulesFile)));
    config.rules.forEach((rulesFile, index) => {
      if (missing[index])
        issues.push({
          path: ['rules', index],
          message: `rules file not found: ${rulesFile}`,
          hint: 'paths are relative to the configuration file',
        });
    });
  }
  if (issues.length > 0 || config === undefined) throw new NovarchConfigError(locateIssues(yaml, issues));
  return config;
}

async function isMissing(file: string): Promise<boolean> {
  try {
    await access(file);
    return false;
  } catch {
    return true;
  }
}
