/**
 * `diagnose`'s implementation (the command's registration, cheap, is in diagnose.ts): loaded by its action
 * with a dynamic import, and by the MCP `diagnose` tool.
 */
import { openSource, type ClusterSource } from '../../answer/sources.ts';
import { diagnose, TRUNCATED_GAP, type DiagnoseOutput } from '../../answer/diagnose.ts';
import { unreadGaps } from '../../answer/gaps.ts';
import { incompleteOf, pasteNamespaces, pasteNeeds, readsOf, type Incomplete } from '../../answer/verdicts.ts';
import { Visibility } from '../../answer/policy.ts';
import { renderAnswer } from '../../render/text.ts';
import { readInput, type Io } from '../io.ts';
import { failOnUnreadableState, outputFormat, printData, type Flags } from '../options.ts';

/** Opens a source, or none when the command can answer from the text alone. */
async function maybeSource(flags: Flags, optional: boolean): Promise<ClusterSource | undefined> {
  try {
    return await openSource(flags);
  } catch (e) {
    if (optional) return undefined;
    throw e;
  }
}

/** A diagnosis qualified by what was read: `json` is `diagnose --json` (with `incomplete`). */
export type DiagnoseRun = Omit<DiagnoseOutput, 'json'> & {
  json: DiagnoseOutput['json'] & { incomplete: Incomplete[] };
  incomplete: Incomplete[];
  /** The paste was explained from its text alone: the cluster named did not give what checking it needs. */
  undecided: boolean;
};

/**
 * The command's core, shared with the MCP `diagnose` tool: the paste read against the source (when there is
 * one). `allowedNamespaces` and `audience` are the access policy's (the CLI passes neither: it sees everything).
 */
export async function diagnoseWith(
  source: ClusterSource | undefined,
  input: {
    text: string;
    namespace?: string;
    k8sVersion?: string;
    allowedNamespaces?: readonly string[];
    audience?: 'channel' | 'operator';
  },
): Promise<DiagnoseRun> {
  // -n, else the kubeconfig context's namespace (docs/contract.md), else each finding's own.
  const assumed = input.namespace ?? source?.contextNamespace?.();
  const { namespaces, guess } = pasteNamespaces(input.text, assumed);
  const loaded = source ? await source.load({ namespaces }) : undefined;
  if (loaded) failOnUnreadableState(loaded.errors);
  // Checked against the cluster only on a read of everything the check needs: a quota that was not read
  // is not "not in team-a now", and nodes that were not read are not "0/0 nodes available".
  // Without placement, what admission decides stands and the scheduler's part is unknown.
  const needs = loaded ? pasteNeeds(readsOf(loaded.errors, namespaces), namespaces, guess) : undefined;
  const missing = needs ? [...needs.admission, ...needs.placement] : [];
  const audience = input.audience ?? 'operator';
  const visibility = input.allowedNamespaces ? Visibility.of(input.allowedNamespaces) : Visibility.everything();
  const gaps = unreadGaps(missing, visibility, audience);
  const out = diagnose({
    text: input.text,
    state: needs?.admission.length ? undefined : loaded?.snapshot,
    ...(needs && needs.admission.length === 0 && needs.placement.length
      ? { unread: new Set(['scheduler'] as const) }
      : {}),
    namespace: assumed,
    now: Date.now(),
    k8sVersion: input.k8sVersion ?? loaded?.serverVersion,
    gaps,
    ...(loaded ? { unreadResources: readsOf(loaded.errors, namespaces).unread.map((u) => u.resource) } : {}),
    allowedNamespaces: input.allowedNamespaces,
    audience: input.audience,
  });
  const incomplete = incompleteOf(missing);
  // Undecided: the admission inputs were not read, or placement was not and a replayed finding (or a
  // manifest) needed it; a refusal that stands on what was read is decided.
  const replayed = ['api-validation', 'limitrange', 'quota', 'scheduler'];
  const placementNeeded =
    out.json.manifests.length > 0 || out.json.findings.some((f) => replayed.includes(f.layer) && f.now === 'unknown');
  const undecided = (needs?.admission.length ?? 0) > 0 || ((needs?.placement.length ?? 0) > 0 && placementNeeded);
  return { ...out, json: { ...out.json, incomplete }, incomplete, undecided };
}

/** What `diagnose` prints without `--json` (and the MCP tool's text), without the final newline. */
export function diagnoseText(out: Pick<DiagnoseOutput, 'answer' | 'recognised' | 'truncated'>): string {
  const nothing = 'Nothing recognised: no quota, LimitRange, scheduling or runtime error and no manifest in the text.';
  // A cap that cut the text is said even when nothing was found in the part that was read.
  return out.recognised ? renderAnswer(out.answer) : out.truncated ? `${nothing}\n⚠ ${TRUNCATED_GAP}` : nothing;
}

/** The `diagnose` command's run: its exit code. */
export async function runDiagnose(file: string | undefined, flags: Flags, io: Io): Promise<number> {
  const format = outputFormat(flags);
  const text = await readInput(file ?? '-', io);
  const explicit = !!(flags.state || process.env.QUOTA_DOCTOR_STATE || flags.kubeconfig || flags.context);
  const source = await maybeSource(flags, !explicit);
  try {
    const out = await diagnoseWith(source, { text, namespace: flags.namespace, k8sVersion: flags.k8sVersion });
    if (format) await printData(io, format, out.json);
    else io.stdout(`${diagnoseText(out)}\n`);
    // A cluster named and not read: the text is explained, whether it holds now is undecided (exit 3).
    return explicit && out.recognised && out.undecided ? 3 : 0;
  } finally {
    await source?.close();
  }
}
