/**
 * `quota-doctor simulate -f manifest`: admit (and schedule) the objects of a manifest, as the API server
 * and scheduler would. `check` (commands/check.ts) is the same run with exit 1 when anything fails.
 *
 * `-f` as kubectl takes it: repeated, a folder (its *.yaml, *.yml, *.json; subfolders with `-R`), `-`
 * for stdin. All the objects of all the files are one run, in order — what `kubectl apply -f A -f DIR`
 * would do: an object admitted from one file counts against the quota seen by the next.
 *
 * Registration only (name, flags, help): the run is in simulate.core.ts, imported when the command runs.
 */
import { Option, type Command } from 'commander';
import type { Io, SetCode } from '../io.ts';
import { addOutputOptions, addSourceOptions } from '../options.ts';
import type { SimulateFlags } from './simulate.core.ts';

/** Collects a repeated option's values in order. */
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** The `simulate` or `check` command: the same flags, the same run; `check` turns a failure into exit 1. */
export function registerSimulation(program: Command, io: Io, setCode: SetCode, check: boolean): void {
  const cmd = addSourceOptions(
    program
      .command(check ? 'check' : 'simulate')
      .description(
        check
          ? 'CI check: exit 1 when any object would be rejected or stay unschedulable'
          : 'admit (and schedule) the objects of a manifest, as the API server and scheduler would',
      )
      .requiredOption(
        '-f, --file <path>',
        'manifest file or folder (multi-document YAML or JSON; - for stdin); repeat for more',
        collect,
      )
      .option('-R, --recursive', 'read the subfolders of a -f folder too')
      .option('-n, --namespace <ns>', 'namespace for objects that name none')
      .addOption(
        new Option(
          '--operation <op>',
          'admit as a CREATE, or an UPDATE of the object in the state (default: UPDATE when it exists)',
        ).choices(['create', 'update']),
      ),
  );
  addOutputOptions(cmd);
  // kubectl's long name, `--filename`, as a hidden spelling of `--file`: its values join the same list, in order.
  cmd.addOption(new Option('--filename <path>').hideHelp());
  cmd.on('option:filename', (value: string) =>
    cmd.setOptionValueWithSource('file', collect(value, cmd.getOptionValue('file') as string[] | undefined), 'cli'),
  );
  cmd.action(async (opts: SimulateFlags) => {
    const { runSimulate } = await import('./simulate.core.ts');
    setCode(await runSimulate(opts, io, check));
  });
}

export function register(program: Command, io: Io, setCode: SetCode): void {
  registerSimulation(program, io, setCode, false);
}
