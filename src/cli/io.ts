/**
 * What every CLI command is given: the process's streams (or a test's), and how it reads a file argument.
 * Kept apart from `program.ts` so commands and the console import it without importing the program.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
    throw new UsageError(
      `${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message}`,
    );
  }
}

/** One manifest file read for `-f`: its name as errors and warnings print it, and its text. */
export interface ManifestFile {
  source: string;
  text: string;
}

/** What `kubectl apply -f DIR` reads from a folder (case as kubectl: `.JSON` is not one). */
const MANIFEST_EXT = /\.(ya?ml|json)$/;

/**
 * The files of one `-f` folder, in the order kubectl reads them (filepath.Walk: names sorted byte-wise,
 * a subfolder read where its name falls); subfolders only with `-R`. A symbolic link to a file is read,
 * one to a folder is not followed (Walk does not follow them either).
 */
export function listManifestFiles(dir: string, recursive: boolean): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    const entries = readdirSync(d, { withFileTypes: true }).sort((a, b) =>
      Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)),
    );
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (recursive) walk(p);
      } else if (MANIFEST_EXT.test(e.name) && (e.isFile() || (e.isSymbolicLink() && isFile(p)))) out.push(p);
    }
  };
  walk(dir);
  return out;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * Reads every `-f` argument in order: `-` is stdin (once), a folder its manifest files (see
 * listManifestFiles), anything else a file read whatever its extension. Errors name the path.
 */
export async function readManifests(paths: readonly string[], recursive: boolean, io: Io): Promise<ManifestFile[]> {
  const out: ManifestFile[] = [];
  let stdinRead = false;
  for (const path of paths) {
    if (path === '-') {
      if (stdinRead) throw new UsageError('-f -: stdin can be read only once');
      stdinRead = true;
      out.push({ source: '<stdin>', text: await io.readStdin() });
      continue;
    }
    let dir = false;
    try {
      dir = statSync(path).isDirectory();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(`${path}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    }
    if (!dir) {
      out.push({ source: path, text: await readInput(path, io) });
      continue;
    }
    let files: string[];
    try {
      files = listManifestFiles(path, recursive);
    } catch (e) {
      throw new UsageError(`${path}: ${(e as Error).message}`);
    }
    if (files.length === 0)
      throw new UsageError(
        `${path}: no *.yaml, *.yml or *.json files${recursive ? '' : ' (subfolders are read with -R)'}`,
      );
    for (const f of files) out.push({ source: f, text: await readInput(f, io) });
  }
  return out;
}
