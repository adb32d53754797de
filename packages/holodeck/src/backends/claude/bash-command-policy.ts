/**
 * Decides whether a Bash command may run under `claude.bash`. The command line is parsed by a real
 * shell parser (parse-shell-command.ts), quoting and escapes resolved as the shell would, and every
 * simple command in it is checked, also inside `sh -c`/`bash -c`, `eval`, `xargs`, `env`, `exec`,
 * `command`, `nice`, `timeout`, `find -exec`, `trap`, `alias` and the like (unwrap-command.ts).
 * Each is compared word by word with `excluded_commands` (an entry `git push` refuses
 * `git push -f` but not `git pull`). Unless `allow_unsafe` is true, it fails closed: a command
 * whose words cannot be known without running the shell (a variable or substitution as the
 * command, a glob) is refused, and so are a small built-in list of destructive or
 * privilege-raising commands, a shell reading commands from its input, and any command the guard
 * cannot see into (not a known wrapper, not a command that only prints its arguments) whose
 * arguments name an excluded or unsafe command (`flock /tmp/l rm -rf x`, `script -c "rm x"`).
 *
 * A guard, not a sandbox: a program can still do what it likes (a script file, `python -c`, a
 * binary that deletes files). Use an OS sandbox or container for agents whose inputs you do not trust.
 */
import { parseCommandLine, type ShellWord } from './parse-shell-command.js';
import { innerCommands } from './unwrap-command.js';

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

export interface BashPolicy {
  excludedCommands: readonly string[];
  allowUnsafe: boolean;
}

/** Deepest `bash -c "bash -c ..."` nesting checked; deeper is refused rather than guessed. */
const MAX_DEPTH = 8;
const ALLOW_UNSAFE = 'set claude.bash.allow_unsafe: true to permit it';

/** `rm`, from `/usr/bin/rm` or `rm`. */
function commandName(word: string): string {
  return word.split('/').pop() ?? word;
}

/** Which excluded entry the words start with; `unknown` when a word that decides it is not written out. */
function matchExcluded(
  words: readonly ShellWord[],
  excluded: readonly string[],
): { entry: string; unknown: boolean } | undefined {
  for (const entry of excluded) {
    const entryWords = entry.trim().split(/\s+/);
    let unknown = false;
    let matched = true;
    for (const [index, expected] of entryWords.entries()) {
      const word = words[index];
      if (word === undefined) {
        if (index < words.length) unknown = true;
        else matched = false;
        if (!matched) break;
        continue;
      }
      if ((index === 0 ? commandName(word) : word) !== expected) {
        matched = false;
        break;
      }
    }
    if (matched) return { entry, unknown };
  }
  return undefined;
}

function isRecursiveRemoval(words: readonly ShellWord[]): boolean {
  return words
    .slice(1)
    .some((word) => word !== undefined && (/^-[a-zA-Z]*[rR]/.test(word) || word === '--recursive'));
}

function removesRootOrHome(words: readonly ShellWord[]): 'yes' | 'unknown' | 'no' {
  const targets = words.slice(1).filter((word) => word === undefined || !word.startsWith('-'));
  const roots = new Set(['/', '/*', '~', '~/', '~/*', '/.']);
  if (targets.some((word) => word !== undefined && roots.has(word.replace(/\/{2,}/g, '/')))) return 'yes';
  return targets.some((word) => word === undefined) ? 'unknown' : 'no';
}

/**
 * Commands that never run an argument as a command: an argument naming an excluded command is
 * only text to them (`echo rm`, `grep -r 'rm -rf' .`). Every other command whose arguments name
 * one is refused unless allow_unsafe: the guard cannot know what `flock`, `script -c`, `chrt`,
 * `unshare` or a command it has never heard of does with them (fail closed, not a wrapper list).
 */
const PASSIVE_COMMANDS = new Set([
  'echo',
  'printf',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'sort',
  'uniq',
  'cut',
  'tr',
  'diff',
  'which',
  'whereis',
  'type',
  // Only reached as `command -v` / `-V` (a lookup): `command rm` is unwrapped like a wrapper.
  'command',
  'whatis',
  'man',
  'test',
  '[',
  'true',
  'false',
  'basename',
  'dirname',
]);

/** The words an argument could hold as a command line (`script -c "rm x"`, `--exec=rm`). */
function argumentTokens(args: readonly ShellWord[]): string[] {
  return args.flatMap((arg) => (arg === undefined ? [] : arg.split(/[\s;&|()<>`'"=]+/))).filter(Boolean);
}

/** Why a command may run an excluded or unsafe command its arguments name, else undefined. */
function argumentRefusal(name: string, args: readonly ShellWord[], policy: BashPolicy): string | undefined {
  if (PASSIVE_COMMANDS.has(name)) return undefined;
  const tokens = argumentTokens(args);
  const names = tokens.map(commandName);
  const unseen = `"${name}" is not a command HoloDeck can see into, so it is refused (${ALLOW_UNSAFE})`;
  for (const entry of policy.excludedCommands) {
    const [head, ...tail] = entry.trim().split(/\s+/);
    const at = names.findIndex(
      (token, index) => token === head && tail.every((word, offset) => tokens[index + 1 + offset] === word),
    );
    if (at >= 0)
      return `an argument of "${name}" names "${entry}", which is in claude.bash.excluded_commands; ${unseen}`;
  }
  const unsafe = names.find((token) => UNSAFE_COMMANDS.includes(token));
  if (unsafe) return `an argument of "${name}" names "${unsafe}", which is refused as unsafe; ${unseen}`;
  const removal = names.indexOf('rm');
  if (removal >= 0) {
    const words = tokens.slice(removal);
    if (isRecursiveRemoval(words) && removesRootOrHome(words) === 'yes')
      return `an argument of "${name}" is a recursive removal of / or ~; ${unseen}`;
  }
  return undefined;
}

/** The refusal for one simple command and everything it runs, or undefined when it may run. */
function checkCommand(words: readonly ShellWord[], policy: BashPolicy, depth: number): string | undefined {
  const [first] = words;
  if (first === undefined) {
    return policy.allowUnsafe
      ? undefined
      : `the command to run is not written out (a variable, substitution or glob), so it cannot be checked; write it out, or ${ALLOW_UNSAFE}`;
  }
  const name = commandName(first);
  const excluded = matchExcluded(words, policy.excludedCommands);
  if (excluded && !excluded.unknown) return `"${excluded.entry}" is in claude.bash.excluded_commands`;
  if (excluded?.unknown && !policy.allowUnsafe)
    return `"${name}" with an argument that is not written out may be "${excluded.entry}", which is in claude.bash.excluded_commands`;
  if (!policy.allowUnsafe) {
    if (UNSAFE_COMMANDS.includes(name)) return `"${name}" is refused as unsafe (${ALLOW_UNSAFE})`;
    if (name === 'rm' && isRecursiveRemoval(words)) {
      const target = removesRootOrHome(words);
      if (target === 'yes') return 'recursive removal of / or ~ is refused as unsafe';
      if (target === 'unknown')
        return `recursive removal of a path that is not written out is refused as unsafe (${ALLOW_UNSAFE})`;
    }
  }
  const inners = innerCommands(name, words.slice(1));
  // What a command runs that the guard cannot see into is judged by its arguments (fail closed).
  if (!policy.allowUnsafe && !inners.length) {
    const refusal = argumentRefusal(name, words.slice(1), policy);
    if (refusal) return refusal;
  }
  for (const inner of inners) {
    if (inner.kind === 'command') {
      const refusal = checkCommand(inner.words, policy, depth);
      if (refusal) return refusal;
    } else if (inner.kind === 'script') {
      if (inner.text === undefined) {
        if (policy.allowUnsafe) continue;
        return `"${name}" runs a command line that is not written out, so it cannot be checked; write it out, or ${ALLOW_UNSAFE}`;
      }
      const refusal = refuseAt(inner.text, policy, depth + 1);
      if (refusal) return refusal;
    } else if (!policy.allowUnsafe) {
      return `a shell reading commands from its input (a pipe, a here-document, a file) cannot be checked and is refused as unsafe (${ALLOW_UNSAFE})`;
    }
  }
  return undefined;
}

function refuseAt(command: string, policy: BashPolicy, depth: number): string | undefined {
  if (depth > MAX_DEPTH)
    return `the command nests shells more than ${MAX_DEPTH} deep, so it cannot be checked`;
  const parsed = parseCommandLine(command);
  if (!parsed.ok) return `the command line cannot be parsed (${parsed.error}), so it cannot be checked`;
  for (const simple of parsed.commands) {
    const refusal = checkCommand(simple.words, policy, depth);
    if (refusal) return refusal;
  }
  return undefined;
}

/** Returns the reason the command is refused, or undefined when it may run. */
export function refuseBashCommand(command: string, policy: BashPolicy): string | undefined {
  return refuseAt(command, policy, 0);
}
