/**
 * `--state PATH`: a file or a folder (read recursively: *.yaml, *.yml, *.json) of objects as
 * `kubectl get -o yaml|json` writes them → a Snapshot, with problems as values (docs/contract.md).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { decodeText, type DecodeProblem } from '../k8s/decode.ts';
import { Snapshot } from '../k8s/snapshot.ts';
import {
  reconciledWarnings,
  type ClusterSource,
  type Reconcile,
  type SourceResult,
  type SourceWarning,
} from './source.ts';

const STATE_EXT = /\.(ya?ml|json)$/i;

export function listStateFiles(path: string): string[] {
  const st = statSync(path);
  if (st.isFile()) return [path];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && STATE_EXT.test(e.name)) out.push(p);
    }
  };
  walk(path);
  return out;
}

export interface LoadedState {
  snapshot: Snapshot;
  warnings: SourceWarning[];
  errors: DecodeProblem[];
}

/** Reads a state path into a snapshot; unreadable files and invalid objects come back as errors. */
export function readStateFiles(path: string, opts: { now?: number; reconcile?: Reconcile } = {}): LoadedState {
  const snapshot = new Snapshot();
  const warnings: SourceWarning[] = [];
  const errors: DecodeProblem[] = [];
  let files: string[];
  try {
    files = listStateFiles(path);
  } catch (e) {
    errors.push({
      source: path,
      message:
        (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : String((e as Error).message),
    });
    return { snapshot, warnings, errors };
  }
  for (const file of files) {
    const name = files.length === 1 ? file : relative(path, file) || file;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      errors.push({ source: name, message: (e as Error).message });
      continue;
    }
    const d = decodeText(text, name);
    for (const w of d.warnings) warnings.push({ kind: 'unread', source: w.source, object: w.object });
    errors.push(...d.errors);
    for (const o of d.objects) snapshot.put(o);
  }
  if (opts.reconcile) warnings.push(...reconciledWarnings(opts.reconcile(snapshot)));
  return { snapshot, warnings, errors };
}

export class FileSource implements ClusterSource {
  readonly kind = 'file';
  private readonly path: string;
  private cached?: LoadedState;
  private readonly opts: { reconcile?: Reconcile; prime?: (s: Snapshot) => void };

  constructor(path: string, opts: { reconcile?: Reconcile; prime?: (s: Snapshot) => void } = {}) {
    this.path = path;
    this.opts = opts;
  }

  describe(): string {
    return `state ${this.path}`;
  }

  async load(): Promise<SourceResult> {
    if (!this.cached) {
      this.cached = readStateFiles(this.path, { reconcile: this.opts.reconcile });
      this.opts.prime?.(this.cached.snapshot);
    }
    return {
      // Every answer gets its own copy-on-write fork: nothing an answer simulates leaks into the next.
      snapshot: this.cached.snapshot.fork(),
      errors: this.cached.errors.map((e) => ({
        resource: 'state',
        message: e.path ? `${e.source}: ${e.path}: ${e.message}` : `${e.source}: ${e.message}`,
      })),
      warnings: this.cached.warnings,
    };
  }

  async ready(): Promise<boolean> {
    const r = await this.load();
    return r.errors.length === 0;
  }

  async close(): Promise<void> {}
}
