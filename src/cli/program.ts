/**
 * `quota-doctor <command>`: argv → answer → text or JSON (docs/contract.md). Exit 0 answered, 1 "would
 * fail" (check), 2 bad usage or unreadable input — one clear line on stderr, never a stack trace.
 *
 * The program itself: its name, how commander writes and fails, and the commands in help order, one
 * module each under `commands/`.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { UsageError } from '../answer/errors.ts';
import { defaultIo, type Io, type SetCode } from './io.ts';
import { addGlobalSourceOptions } from './options.ts';
import * as simulate from './commands/simulate.ts';
import * as check from './commands/check.ts';
import * as diagnose from './commands/diagnose.ts';
import * as quota from './commands/quota.ts';
import * as whatif from './commands/whatif.ts';
import * as consoleCommand from './commands/console.ts';
import * as start from './commands/start.ts';
import * as serve from './commands/serve.ts';
import * as mcp from './commands/mcp.ts';
import * as completion from './commands/completion.ts';

export type { Io } from './io.ts';

/** A command module: adds its command (flags, help, action) to the program. */
interface CommandModule {
  register: (program: Command, io: Io, setCode: SetCode) => void;
}

/** In help order. */
const COMMANDS: readonly CommandModule[] = [
  simulate,
  check,
  diagnose,
  quota,
  whatif,
  consoleCommand,
  start,
  serve,
  mcp,
  completion,
];

/** The version in package.json (two folders up from src/cli/ and from a compiled dist/cli/ alike). */
export function packageVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const version = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined;
  return typeof version === 'string' ? version : 'unknown';
}

/** Where help sends a reader: the docs shipped in the repository. */
export const DOCS_HELP = `
Docs (in the repository):
  README.md            quick start, the CLI, CI recipe, the Slack app
  docs/contract.md     the CLI contract: commands, flags, JSON/YAML output, exit codes
  docs/architecture.md how an answer is computed

--state, --kubeconfig, --context and --k8s-version may come before or after the command.
Shell completion: quota-doctor completion bash|zsh`;

export function buildProgram(io: Io, setCode: SetCode): Command {
  const program = new Command('quota-doctor')
    .description('Why was my pod rejected, or why is it Pending — and the smallest change that fixes it.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (s, write) => write(s) })
    .showHelpAfterError(false)
    .addHelpText('after', DOCS_HELP);
  addGlobalSourceOptions(program);
  for (const command of COMMANDS) command.register(program, io, setCode);
  for (const command of program.commands)
    command.addHelpText('after', `\nDocs: docs/contract.md ("quota-doctor ${command.name()}"), README.md`);
  return program;
}

export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  // No command is bad usage (exit 2, one line), not a request for help (commander would print the whole help on stderr).
  if (argv.length === 0) {
    const names = buildProgram(io, () => {}).commands.map((c) => c.name());
    io.stderr(`quota-doctor: missing command (${names.join(', ')}); see quota-doctor --help\n`);
    return 2;
  }
  let code = 0;
  const program = buildProgram(io, (n) => (code = n));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
        return e.exitCode === 0 ? 0 : 2;
      return 2;
    }
    if (e instanceof UsageError) {
      io.stderr(`quota-doctor: ${e.message}\n`);
      return 2;
    }
    io.stderr(`quota-doctor: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}
