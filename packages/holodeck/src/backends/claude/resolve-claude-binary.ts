import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { RuntimeMissingError } from '../../errors.js';

/** Environment variable that points HoloDeck at a specific `claude` executable. */
export const CLAUDE_PATH_VARIABLE = 'HOLODECK_CLAUDE_PATH';

const SUPPORTED = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];

export interface ResolveClaudeBinaryOptions {
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  arch?: string;
  /** Resolves a module specifier to a file path; throws when not installed. */
  resolve?: (specifier: string) => string;
}

function platformPackages(platform: NodeJS.Platform, arch: string): string[] {
  const base = `@anthropic-ai/claude-agent-sdk-${platform}-${arch}`;
  return platform === 'linux' ? [base, `${base}-musl`] : [base];
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds the `claude` executable the Claude Agent SDK ships as a platform-specific optional
 * dependency. We resolve it ourselves so a missing binary becomes an error that says how to
 * fix it, instead of a spawn failure deep inside the SDK.
 */
export function resolveClaudeBinary(options: ResolveClaudeBinaryOptions = {}): string {
  const env = options.env ?? process.env;
  const override = env[CLAUDE_PATH_VARIABLE];
  if (override) {
    if (!existsSync(override) || !isExecutable(override)) {
      throw new RuntimeMissingError(
        `${CLAUDE_PATH_VARIABLE} points at "${override}", which is not an executable file. ` +
          `Fix the path, or unset ${CLAUDE_PATH_VARIABLE} to use the claude binary bundled with @anthropic-ai/claude-agent-sdk.`,
      );
    }
    return override;
  }
  const platform = options.platform ?? process.platform;
  const arch = options.arch ?? process.arch;
  const resolve = options.resolve ?? createRequire(import.meta.url).resolve;
  const executable = platform === 'win32' ? 'claude.exe' : 'claude';
  for (const pkg of platformPackages(platform, arch)) {
    try {
      const file = resolve(`${pkg}/${executable}`);
      if (existsSync(file) && isExecutable(file)) return file;
    } catch {
      // not installed: try the next candidate
    }
  }
  const key = `${platform}-${arch}`;
  if (!SUPPORTED.includes(key)) {
    throw new RuntimeMissingError(
      `The Claude Agent SDK ships no claude binary for this platform (${key}); supported: ${SUPPORTED.join(', ')}. ` +
        `Install Claude Code for your platform yourself and set ${CLAUDE_PATH_VARIABLE} to its path.`,
    );
  }
  throw new RuntimeMissingError(
    `The claude binary bundled with @anthropic-ai/claude-agent-sdk is not installed (expected package ${platformPackages(platform, arch)[0]}). ` +
      'It is an optional dependency: reinstall without --omit=optional / --no-optional (e.g. `npm ci --include=optional`), ' +
      `or set ${CLAUDE_PATH_VARIABLE} to the path of a claude executable.`,
  );
}
