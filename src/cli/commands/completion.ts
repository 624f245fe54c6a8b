/**
 * `quota-doctor completion bash|zsh`: a shell completion script for the commands and flags, written from
 * the program itself (so a new command or flag is completed without editing this file). Files complete
 * after `-f`, `--state` and `--kubeconfig`, the choices after `-o`; namespaces and contexts are not
 * looked up (a completion never calls the cluster).
 *
 *   bash: source <(quota-doctor completion bash)       (or write it to /etc/bash_completion.d/quota-doctor)
 *   zsh:  quota-doctor completion zsh > "${fpath[1]}/_quota-doctor"   (or source <(quota-doctor completion zsh))
 */
import { Argument, type Option, type Command } from 'commander';
import { UsageError } from '../../answer/errors.ts';
import type { Io, SetCode } from '../io.ts';

export const SHELLS = ['bash', 'zsh'] as const;

/** Options whose value is a path. */
const PATH_OPTIONS = new Set(['--file', '--state', '--kubeconfig']);

interface Flag {
  names: string[];
  value: 'none' | 'path' | 'word';
  choices: readonly string[] | undefined;
  repeatable: boolean;
  description: string;
}

function flagOf(o: Option): Flag {
  const names = [o.short, o.long].filter((n): n is string => n !== undefined);
  const takesValue = o.required || o.optional;
  return {
    names,
    value: !takesValue ? 'none' : o.long !== undefined && PATH_OPTIONS.has(o.long) ? 'path' : 'word',
    choices: o.argChoices,
    repeatable: o.long === '--file',
    description: o.description,
  };
}

/** The flags of a command as help lists them (with -V/--version on the program), and -h/--help. */
function flagsOf(cmd: Command): Flag[] {
  return [
    ...cmd.options.filter((o) => !o.hidden).map(flagOf),
    { names: ['-h', '--help'], value: 'none', choices: undefined, repeatable: false, description: 'display help' },
  ];
}

/** A `case` branch, or nothing when no word would match it (`) …` alone is a syntax error). */
const branch = (words: readonly string[], body: string): string[] =>
  words.length > 0 ? [`    ${words.join('|')}) ${body} ;;`] : [];

interface CommandInfo {
  name: string;
  description: string;
  flags: Flag[];
  args: readonly Argument[];
}

function commandsOf(program: Command): CommandInfo[] {
  return program.commands.map((c) => ({
    name: c.name(),
    description: c.description(),
    flags: flagsOf(c),
    args: c.registeredArguments,
  }));
}

const shellWords = (words: readonly string[]) => words.join(' ');

/** The bash script: one function, `_quota_doctor`, registered with `complete -F`. */
export function bashScript(program: Command): string {
  const commands = commandsOf(program);
  const globals = flagsOf(program);
  const all = [...globals, ...commands.flatMap((c) => c.flags)];
  const valueFlags = (kind: 'path' | 'word') => [
    ...new Set(all.filter((f) => f.value === kind && !f.choices).flatMap((f) => f.names)),
  ];
  const choiceCases = [...new Map(all.filter((f) => f.choices).map((f) => [f.names.join('|'), f.choices!] as const))];
  const globalValueFlags = globals.filter((f) => f.value !== 'none').flatMap((f) => f.names);
  const fileArg = (c: CommandInfo) => c.args.some((a) => a.name() === 'file');
  const choiceArg = (c: CommandInfo) => c.args.find((a) => a.argChoices)?.argChoices;
  const lines = [
    '# bash completion for quota-doctor (quota-doctor completion bash); docs/contract.md',
    '#   source <(quota-doctor completion bash)',
    '_quota_doctor() {',
    '  local cur prev cmd i',
    '  cur="${COMP_WORDS[COMP_CWORD]}"',
    '  prev=""',
    '  (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  cmd=""',
    '  for (( i = 1; i < COMP_CWORD; i++ )); do',
    '    case "${COMP_WORDS[i]}" in',
    ...branch(globalValueFlags, '(( i++ ))').map((l) => `  ${l}`),
    ...branch(
      commands.map((c) => c.name),
      'cmd="${COMP_WORDS[i]}"; break',
    ).map((l) => `  ${l}`),
    '    esac',
    '  done',
    '  case "$prev" in',
    ...choiceCases.map(
      ([names, choices]) => `    ${names}) COMPREPLY=( $(compgen -W "${shellWords(choices)}" -- "$cur") ); return 0 ;;`,
    ),
    ...branch(valueFlags('path'), 'compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return 0'),
    ...branch(valueFlags('word'), 'COMPREPLY=(); return 0'),
    '  esac',
    '  case "$cmd" in',
    `    "") COMPREPLY=( $(compgen -W "${shellWords(cur0(commands, globals))}" -- "$cur") ) ;;`,
    ...commands.map((c) => {
      const words = shellWords(c.flags.flatMap((f) => f.names));
      const choices = choiceArg(c);
      const positional = fileArg(c)
        ? `if [[ "$cur" != -* ]]; then compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); else COMPREPLY=( $(compgen -W "${words}" -- "$cur") ); fi`
        : choices
          ? `if [[ "$cur" != -* ]]; then COMPREPLY=( $(compgen -W "${shellWords(choices)}" -- "$cur") ); else COMPREPLY=( $(compgen -W "${words}" -- "$cur") ); fi`
          : `COMPREPLY=( $(compgen -W "${words}" -- "$cur") )`;
      return `    ${c.name}) ${positional} ;;`;
    }),
    '  esac',
    '  return 0',
    '}',
    'complete -F _quota_doctor quota-doctor',
    '',
  ];
  return lines.join('\n');
}

/** What completes on an empty line: the commands first, then the program's flags. */
function cur0(commands: CommandInfo[], globals: Flag[]): string[] {
  return [...commands.map((c) => c.name), ...globals.flatMap((f) => f.names)];
}

/** Text safe inside a zsh `_arguments` description (`[...]`) or a `_describe` entry (`name:text`). */
function zshText(s: string): string {
  return s
    .replace(/[[\]]/g, '')
    .replace(/[:'\\`$]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function zshFlagSpecs(flags: Flag[]): string[] {
  return flags.flatMap((f) => {
    const action = f.choices
      ? `:${f.value === 'path' ? 'path' : 'value'}:(${f.choices.join(' ')})`
      : f.value === 'path'
        ? ':path:_files'
        : f.value === 'word'
          ? ':value: '
          : '';
    return f.names.map((n) => `'${f.repeatable ? '*' : ''}${n}[${zshText(f.description)}]${action}'`);
  });
}

function zshArgSpecs(c: CommandInfo): string[] {
  return c.args.map((a, i) => {
    const optional = a.required ? '' : ':';
    const action = a.argChoices ? `(${a.argChoices.join(' ')})` : a.name() === 'file' ? '_files' : ' ';
    return a.variadic ? `'*:${a.name()}:${action}'` : `'${i + 1}:${optional}${a.name()}:${action}'`;
  });
}

/** The zsh script: a `#compdef` function using `_arguments` (autoloaded from $fpath, or sourced). */
export function zshScript(program: Command): string {
  const commands = commandsOf(program);
  const globals = flagsOf(program);
  const cont = ' \\';
  const lines = [
    '#compdef quota-doctor',
    '# zsh completion for quota-doctor (quota-doctor completion zsh); docs/contract.md',
    '#   quota-doctor completion zsh > "${fpath[1]}/_quota-doctor"   or   source <(quota-doctor completion zsh)',
    '_quota_doctor() {',
    '  local curcontext="$curcontext" state line',
    '  typeset -A opt_args',
    '  local -a commands',
    '  commands=(',
    ...commands.map((c) => `    '${c.name}:${zshText(c.description)}'`),
    '  )',
    `  _arguments -C${cont}`,
    ...zshFlagSpecs(globals).map((s) => `    ${s}${cont}`),
    `    '1: :->command'${cont}`,
    "    '*:: :->args'",
    '  case $state in',
    "    command) _describe -t commands 'quota-doctor command' commands ;;",
    '    args)',
    '      case $line[1] in',
    ...commands.map((c) => {
      const specs = [...zshFlagSpecs(c.flags), ...zshArgSpecs(c)];
      return `        ${c.name}) _arguments ${specs.join(' ')} ;;`;
    }),
    '      esac ;;',
    '  esac',
    '}',
    'if [ "$funcstack[1]" = "_quota_doctor" ]; then',
    '  _quota_doctor "$@"',
    'else',
    '  compdef _quota_doctor quota-doctor',
    'fi',
    '',
  ];
  return lines.join('\n');
}

export function register(program: Command, io: Io, setCode: SetCode): void {
  program
    .command('completion')
    .description('print a shell completion script (bash or zsh)')
    .addArgument(new Argument('<shell>', 'bash or zsh').choices(SHELLS))
    .addHelpText(
      'after',
      '\nbash: source <(quota-doctor completion bash)\nzsh:  quota-doctor completion zsh > "${fpath[1]}/_quota-doctor"\n',
    )
    .action((shell: string) => {
      if (shell === 'bash') io.stdout(bashScript(program));
      else if (shell === 'zsh') io.stdout(zshScript(program));
      else throw new UsageError(`completion: unknown shell ${shell} (bash or zsh)`);
      setCode(0);
    });
}
