/** `quota-doctor check -f manifest`: `simulate` for CI — exit 1 when any object would be rejected or stay unschedulable. */
import type { Command } from 'commander';
import type { Io, SetCode } from '../io.ts';
import { registerSimulation } from './simulate.ts';

export function register(program: Command, io: Io, setCode: SetCode): void {
  registerSimulation(program, io, setCode, true);
}
