import type { FieldPath, FunctionToolConfig, YamlPosition } from '../../config/index.js';
import { ConfigError, type ConfigIssue, UserModuleError } from '../../errors.js';
import { compileUserSchema } from '../../json-schema/create-ajv.js';
import { loadUserModule } from '../../load-user-module.js';
import { errorMessage } from '../../support.js';
import { describeModuleLoadError } from '../describe-module-error.js';
import type { HoloDeckTool, LoadedTools, ToolOutput } from '../holodeck-tool.js';
import { callWithTimeout, type ToolImplementation } from './call-with-timeout.js';

/** A function tool of agent.yaml and its position in `tools`, for error messages. */
export interface FunctionToolEntry {
  index: number;
  config: FunctionToolConfig;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** The export a tool module may provide to release what it holds (pools, timers, sockets). */
const CLOSE_EXPORT = 'close';

/** The first words of every invalid-arguments output, so graders can tell a call that never ran. */
export const INVALID_ARGUMENTS_PREFIX = 'Invalid arguments for "';

function functionTool(config: FunctionToolConfig, implementation: ToolImplementation): HoloDeckTool {
  const validate = compileUserSchema(config.parameters);
  const timeoutMs = config.timeout !== undefined ? config.timeout * 1000 : DEFAULT_TIMEOUT_MS;
  return {
    name: config.name,
    description: config.description,
    inputSchema: config.parameters,
    async execute(input, options = {}): Promise<ToolOutput> {
      const args = input ?? {};
      if (!validate(args)) {
        const problems = (validate.errors ?? [])
          .map((error) => `${error.instancePath || '(root)'} ${error.message}`)
          .join('; ');
        return { text: `${INVALID_ARGUMENTS_PREFIX}${config.name}": ${problems}`, isError: true };
      }
      // ajv accepted an object schema's input, so it is a plain object here.
      return callWithTimeout(
        config.name,
        implementation,
        args as Record<string, unknown>,
        timeoutMs,
        options.signal,
      );
    },
  };
}

/**
 * Awaits each module's exported `close()` (not when it is itself a tool), all of them; a close()
 * that fails is the user's module error.
 */
async function closeModules(
  modules: Map<string, Record<string, unknown>>,
  usedExports: Map<string, Set<string>>,
): Promise<void> {
  const closing = [...modules].flatMap(([file, module]) => {
    const close = module[CLOSE_EXPORT];
    if (typeof close !== 'function' || usedExports.get(file)?.has(CLOSE_EXPORT)) return [];
    return [{ file, done: (async () => (close as () => unknown)())() }];
  });
  const failures = [];
  for (const { file, done } of closing) {
    try {
      await done;
    } catch (error) {
      failures.push(`${file}: ${errorMessage(error)}`);
    }
  }
  if (failures.length)
    throw new UserModuleError(
      `close() of a function tool module failed: ${failures.join('; ')}; fix the module's close() export`,
    );
}

/**
 * Imports each function tool's module (once per file) and checks the named export is a function.
 * All problems are reported together as one ConfigError. The result's `close()` awaits each
 * module's exported `close()` (when it is not itself a tool), so a module's pools and timers end
 * with the run.
 */
export async function loadFunctionTools(
  agentFile: string,
  entries: readonly FunctionToolEntry[],
  /** Where a field of agent.yaml is (LoadedAgent.locate), so issues carry its line. */
  locate?: (path: FieldPath) => YamlPosition,
): Promise<LoadedTools> {
  const at = (path: FieldPath) => (locate ? locate(path) : {});
  const modules = new Map<string, Record<string, unknown>>();
  const usedExports = new Map<string, Set<string>>();
  const tools: HoloDeckTool[] = [];
  const issues: ConfigIssue[] = [];
  for (const { index, config } of entries) {
    const exportName = config.function ?? config.name;
    let module = modules.get(config.file);
    if (!module) {
      try {
        module = await loadUserModule(config.file);
        modules.set(config.file, module);
      } catch (error) {
        // Located in the module (its syntax error, the line that threw while loading).
        const problem = describeModuleLoadError(error, config.file);
        issues.push({
          file: problem.file,
          ...(problem.line !== undefined ? { line: problem.line } : {}),
          ...(problem.column !== undefined ? { column: problem.column } : {}),
          path: `tools[${index}].file`,
          message: `cannot load function tool module ${config.file}: ${problem.message}`,
          hint: 'check the module runs on its own, e.g. `node <file>`',
        });
        continue;
      }
    }
    const implementation = module[exportName];
    if (typeof implementation !== 'function') {
      const loaded = module;
      const exported = Object.keys(loaded).filter((key) => typeof loaded[key] === 'function');
      issues.push({
        file: agentFile,
        ...at(['tools', index, config.function === undefined ? 'name' : 'function']),
        path: `tools[${index}].function`,
        message: `module ${config.file} has no exported function "${exportName}"`,
        hint: exported.length
          ? `exported functions: ${exported.join(', ')}`
          : 'the module exports no functions',
      });
      continue;
    }
    usedExports.set(config.file, (usedExports.get(config.file) ?? new Set()).add(exportName));
    tools.push(functionTool(config, implementation as ToolImplementation));
  }
  const closeAll = () => closeModules(modules, usedExports);
  if (issues.length) {
    await closeAll().catch(() => {});
    throw new ConfigError(issues);
  }
  let closing: Promise<void> | undefined;
  return {
    tools,
    close: () => {
      closing ??= closeAll();
      return closing;
    },
  };
}
