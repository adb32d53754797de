/**
 * Decides whether a Bash command may run under `claude.bash`. The command is split into its
 * simple commands (at ; && || | & newlines, subshells and substitutions), and each one is
 * compared word by word with `excluded_commands` (an entry `git push` refuses `git push -f`
 * but not `git pull`). Unless `allow_unsafe` is true, a small built-in list of destructive or
 * privilege-raising commands is refused too.
 */

/** Commands refused unless `bash.allow_unsafe: true`. */
export const UNSAFE_COMMANDS = [
  'sudo',
  'su',
  'doas',
  'mkfs',
  'dd',
  'shutdown',
  'reboot',
  'halt',
  'poweroff',
  'eval',
];
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);

export interface BashPolicy {
  excludedCommands: readonly string[];
  allowUnsafe: boolean;
}

/** Splits a shell line into simple commands, each as a list of words (quotes are kept simple). */
export function splitSimpleCommands(command: string): string[][] {
  return command
    .split(/\|\||&&|[;|&\n`]|\$\(|[()]/)
    .map((segment) =>
      segment
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map((word) => word.replace(/^['"]|['"]$/g, '')),
    )
    .map((words) => {
      // Leading VAR=value assignments and wrappers do not change which program runs.
      let start = 0;
      while (start < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start] ?? '')) start++;
      while (['env', 'command', 'exec', 'nohup', 'time'].includes(words[start] ?? '')) start++;
      return words.slice(start).map((word, index) => (index === 0 ? (word.split('/').pop() ?? word) : word));
    })
    .filter((words) => words.length > 0);
}

function startsWithWords(words: string[], entry: string): boolean {
  const entryWords = entry.trim().split(/\s+/);
  return entryWords.every((word, index) => words[index] === word);
}

function isRecursiveRootRemoval(words: string[]): boolean {
  if (words[0] !== 'rm') return false;
  const recursive = words.some((word) => /^-[a-zA-Z]*[rR]/.test(word) || word === '--recursive');
  return recursive && words.some((word) => word === '/' || word === '/*' || word === '~' || word === '~/');
}

/** Returns the reason the command is refused, or undefined when it may run. */
export function refuseBashCommand(command: string, policy: BashPolicy): string | undefined {
  const simpleCommands = splitSimpleCommands(command);
  for (const words of simpleCommands) {
    const excluded = policy.excludedCommands.find((entry) => startsWithWords(words, entry));
    if (excluded) return `"${excluded}" is in claude.bash.excluded_commands`;
  }
  if (policy.allowUnsafe) return undefined;
  for (const words of simpleCommands) {
    const unsafe = UNSAFE_COMMANDS.find((entry) => words[0] === entry);
    if (unsafe) return `"${unsafe}" is refused as unsafe (set claude.bash.allow_unsafe: true to permit it)`;
    if (isRecursiveRootRemoval(words)) return 'recursive removal of / or ~ is refused as unsafe';
  }
  const pipedIntoShell = /\|\s*(sudo\s+)?(\S*\/)?(sh|bash|zsh|dash|ksh|fish)\b/.exec(command);
  if (pipedIntoShell?.[3] && SHELLS.has(pipedIntoShell[3])) {
    return 'piping output into a shell is refused as unsafe (set claude.bash.allow_unsafe: true to permit it)';
  }
  return undefined;
}
