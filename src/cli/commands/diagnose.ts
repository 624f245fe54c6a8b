/**
 * `quota-doctor diagnose [file]`: explain pasted text (errors, events, describe output, manifests). It
 * answers from the text alone when no cluster is named and none can be reached.
 *
 * Registration only (name, flags, help): the run is in diagnose.core.ts, imported when the command runs, so
 * `--help` and the other commands never load the engine.
 */
import type { Command } from 'commander';
import type { Io, SetCode } from '../io.ts';
import { addOutputOptions, addSourceOptions, type Flags } from '../options.ts';

export function register(program: Command, io: Io, setCode: SetCode): void {
  const cmd = addSourceOptions(
    program
      .command('diagnose')
      .description(
        'explain pasted text (errors, events, describe output, manifests): which layer, the numbers, verified fixes',
      )
      .argument('[file]', 'file to read (- or nothing: stdin)')
      .option('-n, --namespace <ns>', 'namespace when the text names none'),
  );
  addOutputOptions(cmd).action(async (file: string | undefined, flags: Flags) => {
    const { runDiagnose } = await import('./diagnose.core.ts');
    setCode(await runDiagnose(file, flags, io));
  });
}
