/**
 * The GitHub Action (action.yml, entry bin/action.js): `quota-doctor check` over a folder of manifests,
 * against the cluster of a kubeconfig or a state snapshot, with an annotation on the file and line of
 * each object that would be refused or stay Pending. Exit status is check's: 0 passes, 1 would fail,
 * 2 bad input.
 *
 * Inputs arrive as the runner passes them, `INPUT_<NAME>` environment variables (action.yml sets them
 * for its composite step): PATH (a folder, walked recursively, or a file; default `.`), STATE,
 * KUBECONFIG (the file's content, or a path), CONTEXT, NAMESPACE. Outputs go to the `GITHUB_OUTPUT`
 * file: `result` (passed | failed | unknown — exit 3, the cluster could not be read | error) and `refused` (how many manifest objects fail).
 *
 * The files are checked together, as one `check -f -` run (in this process, `main` with a captured Io):
 * objects later in the folder see the quota the earlier ones used, as a deploy of the whole folder would.
 * Each file is decoded on its own first, so a bad file is reported by its name. Results come back in
 * manifest order, each object followed by the pods and objects it expands to (engine/simulate.ts), so a
 * refused pod of a Deployment is reported on the Deployment's `metadata.name` line.
 */
import {
  appendFileSync,
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Node as YamlNode } from 'yaml';
import { UsageError } from './answer/errors.ts';
import { decodeManifest } from './cli/commands/simulate.core.ts';
import type { Io } from './cli/io.ts';
import { main } from './cli/program.ts';

const MANIFEST_FILE = /\.(ya?ml|json)$/i;

/** One object of a manifest file and the line an annotation points at (1-based). */
export interface ManifestObject {
  file: string;
  line: number;
  kind: string;
  name: string;
}

export interface ActionEnv {
  [name: string]: string | undefined;
}

export interface ActionIo {
  /** The step's log: annotations (workflow commands) and the summary lines. */
  stdout: (s: string) => void;
}

/** `%`, CR and LF escaped, as the runner reads a workflow command's message. */
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: also `:` and `,`. */
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::error file=…,line=…,title=…::message` (properties left out when absent). */
export function workflowCommand(
  command: 'error' | 'warning',
  message: string,
  props: { file?: string; line?: number; title?: string } = {},
): string {
  const p = [
    props.file !== undefined ? `file=${escapeProperty(props.file)}` : '',
    props.line !== undefined ? `line=${props.line}` : '',
    props.title !== undefined ? `title=${escapeProperty(props.title)}` : '',
  ].filter((x) => x !== '');
  return `::${command}${p.length ? ` ${p.join(',')}` : ''}::${escapeData(message)}\n`;
}

/** Manifest files under a path (a file, or a folder walked recursively), sorted, hidden folders skipped. */
export function manifestFiles(path: string): string[] {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new UsageError(`${path}: no such file or folder`);
  }
  if (!isDirectory) return [path];
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && MANIFEST_FILE.test(e.name)) out.push(p);
    }
  };
  walk(path);
  return out;
}

function scalarOf(map: YamlNode | null | undefined, key: string): { value: string; offset: number } | undefined {
  if (!isMap(map)) return undefined;
  for (const pair of map.items) {
    if (isScalar(pair.key) && pair.key.value === key && isScalar(pair.value) && pair.value.value !== null) {
      return { value: String(pair.value.value), offset: pair.key.range?.[0] ?? 0 };
    }
  }
  return undefined;
}

function mapOf(map: YamlNode | null | undefined, key: string): YamlNode | undefined {
  if (!isMap(map)) return undefined;
  const pair = map.items.find((p) => isScalar(p.key) && p.key.value === key);
  return (pair?.value as YamlNode | null | undefined) ?? undefined;
}

/**
 * The objects of a manifest file in document order, each with the line of its `metadata.name` key (the
 * object's first line when it has no name); the items of a `…List` in item order.
 */
export function locateObjects(text: string, file: string): ManifestObject[] {
  const lc = new LineCounter();
  const out: ManifestObject[] = [];
  const line = (offset: number) => lc.linePos(offset).line;
  const add = (node: YamlNode | null | undefined): void => {
    if (!isMap(node)) return;
    const kind = scalarOf(node, 'kind')?.value ?? '';
    const items = mapOf(node, 'items');
    if (kind.endsWith('List') && isSeq(items)) {
      for (const item of items.items) add(item as YamlNode);
      return;
    }
    const name = scalarOf(mapOf(node, 'metadata'), 'name');
    out.push({ file, kind, name: name?.value ?? '', line: line(name?.offset ?? node.range?.[0] ?? 0) });
  };
  for (const doc of parseAllDocuments(text, { lineCounter: lc })) add(doc.contents);
  return out;
}

/** A result of `check --json` (docs/contract.md), the fields read here. */
interface CheckResult {
  kind: string;
  namespace: string;
  name: string;
  /** `allowed: null`: undecided (the namespace's LimitRanges or quotas could not be read). */
  admission: { allowed: boolean | null; layer: string | null; message: string | null };
  scheduling: { scheduled: boolean; message: string | null; nominatedNode?: string } | null;
  /** Decided on what was read (`passes`, `fails`), or not (`unknown`). */
  verdict?: 'passes' | 'fails' | 'unknown';
}

const LAYER: Record<string, string> = { quota: 'ResourceQuota', limitrange: 'LimitRange' };

/** `Kind ns/name` or `Kind name`. */
const objectName = (r: CheckResult) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;

/** The failures of a check, each on the manifest object it comes from (results in manifest order). */
export function annotate(
  results: readonly CheckResult[],
  objects: readonly ManifestObject[],
): { object: ManifestObject | undefined; result: CheckResult }[] {
  const out: { object: ManifestObject | undefined; result: CheckResult }[] = [];
  let at = -1;
  for (const r of results) {
    const next = objects[at + 1];
    if (next && next.kind === r.kind && next.name === r.name) at++;
    const failed =
      r.verdict !== undefined
        ? r.verdict === 'fails'
        : !r.admission.allowed || (r.scheduling !== null && !r.scheduling.scheduled);
    if (failed) out.push({ object: objects[at], result: r });
  }
  return out;
}

function describeFailure(r: CheckResult): { title: string; message: string } {
  if (!r.admission.allowed) {
    const layer = r.admission.layer ? (LAYER[r.admission.layer] ?? r.admission.layer) : 'admission';
    return { title: `${objectName(r)}: rejected by ${layer}`, message: r.admission.message ?? 'rejected' };
  }
  const s = r.scheduling!;
  const how = s.nominatedNode ? `would preempt on ${s.nominatedNode}` : 'stays Pending';
  return { title: `${objectName(r)}: ${how}`, message: s.message ?? how };
}

/** A kubeconfig input: a path as it is, content written to a 0600 file in the runner's temp folder. */
function kubeconfigFile(input: string, env: ActionEnv): { path: string; cleanup: () => void } {
  if (!input.includes('\n') && !/^\s*apiVersion\s*:/.test(input)) return { path: input, cleanup: () => {} };
  const dir = mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), 'quota-doctor-'));
  const path = join(dir, 'kubeconfig');
  writeFileSync(path, input, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function setOutputs(env: ActionEnv, outputs: Record<string, string>): void {
  if (!env.GITHUB_OUTPUT) return;
  appendFileSync(
    env.GITHUB_OUTPUT,
    Object.entries(outputs)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
  );
}

/** The action: inputs from `env`, paths relative to `cwd` (the workspace); returns the exit status. */
export async function runAction(env: ActionEnv, cwd: string, io: ActionIo): Promise<number> {
  const input = (name: string) => (env[`INPUT_${name.toUpperCase()}`] ?? '').trim();
  const workspace = env.GITHUB_WORKSPACE || cwd;
  const shown = (p: string) => relative(workspace, resolve(cwd, p)).split(sep).join('/');
  const fail = (message: string, props: { file?: string } = {}): number => {
    io.stdout(workflowCommand('error', message, { ...props, title: 'quota-doctor' }));
    setOutputs(env, { result: 'error', refused: '0' });
    return 2;
  };

  const path = input('path') || '.';
  let files: string[];
  try {
    files = manifestFiles(resolve(cwd, path));
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
  if (files.length === 0) return fail(`${path}: no manifest files (.yaml, .yml, .json)`);

  const texts: string[] = [];
  const objects: ManifestObject[] = [];
  let bad = 0;
  for (const f of files) {
    const name = shown(f);
    const text = readFileSync(f, 'utf8');
    try {
      decodeManifest(text, name);
    } catch (e) {
      io.stdout(
        workflowCommand('error', e instanceof Error ? e.message : String(e), {
          file: name,
          title: 'quota-doctor: unreadable manifest',
        }),
      );
      bad++;
      continue;
    }
    texts.push(text);
    objects.push(...locateObjects(text, name).filter((o) => o.kind !== ''));
  }
  if (bad > 0) {
    setOutputs(env, { result: 'error', refused: '0' });
    return 2;
  }

  const argv = ['check', '-f', '-', '--json'];
  const state = input('state');
  const kubeconfig = state ? undefined : input('kubeconfig') ? kubeconfigFile(input('kubeconfig'), env) : undefined;
  if (state) argv.push('--state', resolve(cwd, state));
  if (kubeconfig) argv.push('--kubeconfig', resolve(cwd, kubeconfig.path));
  if (input('context')) argv.push('--context', input('context'));
  if (input('namespace')) argv.push('-n', input('namespace'));

  let stdout = '';
  let stderr = '';
  const checkIo: Io = {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    readStdin: async () => texts.map((t) => (t.endsWith('\n') ? t : `${t}\n`)).join('---\n'),
    isTTY: false,
  };
  let code: number;
  try {
    code = await main(argv, checkIo);
  } finally {
    kubeconfig?.cleanup();
  }
  if (code === 2 || stdout === '') return fail(stderr.trim().replace(/^quota-doctor: /, '') || `check exited ${code}`);

  const out = JSON.parse(stdout) as { results: CheckResult[]; warnings: string[] };
  for (const w of out.warnings) io.stdout(workflowCommand('warning', w, { title: 'quota-doctor' }));
  const failures = annotate(out.results, objects);
  // One annotation per manifest object (GitHub shows at most 10 error annotations per step): its first
  // failure, and how many more of what it expands to (a Deployment's other pods) fail too.
  const groups = new Map<string, typeof failures>();
  for (const f of failures) {
    const key = f.object ? `${f.object.file}:${f.object.line}` : `?${objectName(f.result)}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  for (const [, group] of groups) {
    const { object, result } = group[0]!;
    const { title, message } = describeFailure(result);
    const more = group.length > 1 ? `\n(${group.length - 1} more object(s) of this manifest fail too)` : '';
    io.stdout(
      workflowCommand('error', message + more, {
        ...(object ? { file: object.file, line: object.line } : {}),
        title: `quota-doctor: ${title}`,
      }),
    );
  }
  const refused = groups.size;
  io.stdout(
    `quota-doctor: ${out.results.length} object(s) checked from ${files.length} file(s); ${failures.length} would be rejected or stay Pending\n`,
  );
  // Exit 3: the cluster did not give what the verdict needs (docs/contract.md): neither passed nor failed.
  setOutputs(env, { result: code === 0 ? 'passed' : code === 3 ? 'unknown' : 'failed', refused: String(refused) });
  return code;
}
