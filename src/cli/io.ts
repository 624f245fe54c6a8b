/**
 * What every CLI command is given: the process's streams (or a test's), and how it reads a file argument.
 * Kept apart from `program.ts` so commands and the console import it without importing the program.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../answer/errors.ts';

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  readStdin: () => Promise<string>;
  isTTY: boolean;
}

/** How a command's action reports its exit code to `main`. */
export type SetCode = (n: number) => void;

export const defaultIo: Io = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  isTTY: !!process.stdin.isTTY,
};

/** Reads a file argument (`-` for stdin). */
export async function readInput(path: string, io: Io): Promise<string> {
  if (path === '-') return io.readStdin();
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message}`);
  }
}
