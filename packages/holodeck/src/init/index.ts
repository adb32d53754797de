// `holodeck init`: templates of a working agent folder, the promptfoo converter, the writer.
export type { InitTemplate, TemplateFile, TemplateOptions } from './init-template.js';
export { findTemplate, INIT_TEMPLATES } from './init-templates.js';
export {
  agentNameFrom,
  checkAgentName,
  checkProvider,
  planAgentFolder,
  SCHEMA_COMMENT,
  SCHEMA_FILE,
  shownPath,
  withSharedFiles,
} from './plan-agent-folder.js';
export { convertPromptfoo, type PromptfooConversion } from './promptfoo/convert-promptfoo.js';
export { writeAgentFolder } from './write-agent-folder.js';
