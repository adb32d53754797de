import type { ShellWord } from './parse-shell-command.js';

/**
 * What a command runs besides itself:
 * - `command`: another command's words (`env X=1 rm a` runs `rm a`);
 * - `script`: a command line the command parses and runs (`bash -c "rm a"`, `eval`, `trap`);
 *   `undefined` when that text is not written out;
 * - `stdin-shell`: a shell reading its commands from its input (`| sh`, `bash <<EOF`, `sh < f`).
 */
export type Inner =
  | { kind: 'command'; words: ShellWord[] }
  | { kind: 'script'; text: ShellWord }
  | { kind: 'stdin-shell'; shell: string };

/** Shells whose `-c` argument is a command line, and that read commands from stdin without one. */
export const SHELLS = new Set([
  'sh',
  'bash',
  'rbash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'yash',
  'fish',
  'busybox-sh',
]);

/** Reads options the way most wrappers do; returns the index of the first operand. */
function skipOptions(
  args: readonly ShellWord[],
  withValue: readonly string[],
  options: { stopAtFirstOperand?: boolean; numeric?: boolean } = {},
): number {
  let index = 0;
  while (index < args.length) {
    const arg = args[index];
    if (arg === undefined) return index; // not written out: the caller treats it as the command
    if (arg === '--') return index + 1;
    if (!arg.startsWith('-') || arg === '-') return index;
    if (options.numeric && /^-\d+$/.test(arg)) {
      index += 1;
      continue;
    }
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (withValue.includes(name) && !arg.includes('=')) index += 2;
    else if (withValue.some((flag) => flag.length === 2 && arg.startsWith(flag) && arg.length > 2))
      index += 1;
    else index += 1;
  }
  return index;
}

function rest(args: readonly ShellWord[], from: number): Inner[] {
  return from < args.length ? [{ kind: 'command', words: args.slice(from) }] : [];
}

/** `a b c` as one command line, or undefined when a word is not written out. */
function joined(words: readonly ShellWord[]): ShellWord {
  return words.every((word) => word !== undefined) ? words.join(' ') : undefined;
}

function envInner(args: readonly ShellWord[]): Inner[] {
  let index = 0;
  while (index < args.length) {
    const arg = args[index];
    if (arg === undefined) return rest(args, index);
    if (arg === '--') return rest(args, index + 1);
    const split = /^(?:-S|--split-string=?)(.*)$/.exec(arg);
    if (split) {
      const inline = split[1] ?? '';
      const script = inline !== '' ? inline : args[index + 1];
      const after = inline !== '' ? index + 1 : index + 2;
      return [{ kind: 'script', text: joined([script, ...args.slice(after)]) }];
    }
    if (['-u', '--unset', '-C', '--chdir'].includes(arg)) index += 2;
    else if (arg.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) index += 1;
    else return rest(args, index);
  }
  return [];
}

function shellInner(shell: string, args: readonly ShellWord[]): Inner[] {
  let readsCommandString = false;
  let readsStdin = false;
  let index = 0;
  while (index < args.length) {
    const arg = args[index];
    if (arg === undefined) return [{ kind: 'script', text: undefined }];
    if (arg === '--') {
      index += 1;
      break;
    }
    if (['-o', '+o', '-O', '+O', '--rcfile', '--init-file'].includes(arg)) {
      index += 2;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(arg)) {
      if (arg.startsWith('-') && arg.includes('c')) readsCommandString = true;
      if (arg.startsWith('-') && arg.includes('s')) readsStdin = true;
      index += 1;
      continue;
    }
    if (arg.startsWith('--')) {
      if (arg === '--command') readsCommandString = true;
      index += 1;
      continue;
    }
    break;
  }
  if (readsCommandString) return [{ kind: 'script', text: args[index] }];
  // A script file runs like any program: what it does is not on the command line.
  if (index < args.length && !readsStdin) return [];
  return [{ kind: 'stdin-shell', shell }];
}

function xargsInner(args: readonly ShellWord[]): Inner[] {
  const withValue = [
    '-a',
    '--arg-file',
    '-d',
    '--delimiter',
    '-E',
    '-e',
    '-I',
    '-L',
    '-l',
    '-n',
    '--max-args',
    '-P',
    '--max-procs',
    '-s',
    '--max-chars',
    '--process-slot-var',
  ];
  return rest(args, skipOptions(args, withValue));
}

function findInner(args: readonly ShellWord[]): Inner[] {
  const inner: Inner[] = [];
  for (let index = 0; index < args.length; index++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[index] ?? '')) continue;
    const start = index + 1;
    let end = start;
    while (end < args.length && args[end] !== ';' && args[end] !== '+') end++;
    inner.push({ kind: 'command', words: args.slice(start, end) });
    index = end;
  }
  return inner;
}

function timeoutInner(args: readonly ShellWord[]): Inner[] {
  const at = skipOptions(args, ['-s', '--signal', '-k', '--kill-after']);
  return rest(args, at + 1); // the duration, then the command
}

function watchInner(args: readonly ShellWord[]): Inner[] {
  const at = skipOptions(args, ['-n', '--interval', '-q', '--equexit']);
  const exec = args.slice(0, at).some((arg) => arg === '-x' || arg === '--exec');
  if (at >= args.length) return [];
  return exec ? rest(args, at) : [{ kind: 'script', text: joined(args.slice(at)) }];
}

function suInner(args: readonly ShellWord[]): Inner[] {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === undefined) continue;
    if (arg === '-c' || arg === '--command') return [{ kind: 'script', text: args[index + 1] }];
    if (arg.startsWith('--command=')) return [{ kind: 'script', text: arg.slice('--command='.length) }];
  }
  return [];
}

function trapInner(args: readonly ShellWord[]): Inner[] {
  const at = skipOptions(args, []);
  const action = args[at];
  // `trap - INT` resets, `trap '' INT` ignores: nothing to run.
  if (action === '-' || action === '' || at >= args.length) return [];
  return [{ kind: 'script', text: action }];
}

function aliasInner(args: readonly ShellWord[]): Inner[] {
  return args.flatMap((arg): Inner[] => {
    if (arg === undefined) return [{ kind: 'script', text: undefined }];
    const equals = arg.indexOf('=');
    return equals > 0 ? [{ kind: 'script', text: arg.slice(equals + 1) }] : [];
  });
}

/**
 * The commands a command runs on behalf of the line (`name` is its basename, `args` the words
 * after it). Commands that only look up another (`command -v rm`, `type rm`) run nothing.
 */
export function innerCommands(name: string, args: readonly ShellWord[]): Inner[] {
  if (SHELLS.has(name)) return shellInner(name, args);
  switch (name) {
    case 'env':
      return envInner(args);
    case 'command':
      return args.slice(0, skipOptions(args, [])).some((arg) => arg === '-v' || arg === '-V')
        ? []
        : rest(args, skipOptions(args, []));
    case 'exec':
      return rest(args, skipOptions(args, ['-a']));
    case 'builtin':
    case 'nohup':
    case 'busybox':
    case 'unbuffer':
      return rest(args, 0);
    case 'sudo':
      return rest(
        args,
        skipOptions(args, [
          '-u',
          '--user',
          '-g',
          '--group',
          '-C',
          '-D',
          '--chdir',
          '-h',
          '--host',
          '-p',
          '--prompt',
          '-r',
          '--role',
          '-t',
          '--type',
          '-U',
          '--other-user',
          '-T',
          '--command-timeout',
        ]),
      );
    case 'doas':
      return rest(args, skipOptions(args, ['-u', '-C']));
    case 'nice':
      return rest(args, skipOptions(args, ['-n', '--adjustment'], { numeric: true }));
    case 'time':
      return rest(args, skipOptions(args, ['-f', '--format', '-o', '--output']));
    case 'timeout':
      return timeoutInner(args);
    case 'stdbuf':
      return rest(args, skipOptions(args, ['-i', '--input', '-o', '--output', '-e', '--error']));
    case 'setsid':
      return rest(args, skipOptions(args, []));
    case 'ionice':
      return rest(
        args,
        skipOptions(args, [
          '-c',
          '--class',
          '-n',
          '--classdata',
          '-p',
          '--pid',
          '-P',
          '--pgid',
          '-u',
          '--uid',
        ]),
      );
    case 'taskset': {
      const at = skipOptions(args, []);
      const listGiven = args.slice(0, at).some((arg) => arg === '-c' || arg === '--cpu-list');
      return rest(args, listGiven ? at + 1 : at + 1);
    }
    case 'xargs':
      return xargsInner(args);
    case 'find':
      return findInner(args);
    case 'watch':
      return watchInner(args);
    case 'su':
      return suInner(args);
    case 'eval':
      return [{ kind: 'script', text: joined(args) }];
    case 'trap':
      return trapInner(args);
    case 'alias':
      return aliasInner(args);
    default:
      return [];
  }
}
