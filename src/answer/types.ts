/**
 * What every entry point (Slack, console, CLI) gets back: a renderer-neutral reply in the order of
 * docs/replies.md — layer, numbers, fixes (who, change, verified), then why. `render/text.ts`
 * and `render/blocks.ts` turn it into a terminal answer or Block Kit; they never compute.
 */
import type { FixWho } from '../engine/fixes.ts';

/** Who can make a fix (the engine's word for it: one definition). */
export type Who = FixWho;

export interface Fix {
  who: Who;
  /** One line: what to change, with the exact amount. */
  summary: string;
  /** The exact change: a kubectl command or a YAML patch. */
  change?: string;
  /**
   * After the change and convergence the incident is over (every wanted replica admitted and scheduled,
   * no new refused or Pending pod). A fix that is not is shown only with the reason in `outcome`.
   */
  verified: boolean;
  /** What it leads to: "admitted, fits node-7", or why it does not end the incident. */
  outcome?: string;
  /** What else changes: evicted pods, other workloads' pods that now fail, pods moving between quotas. */
  sideEffects?: string[];
}

export type { PathLayer } from '../k8s/layers.ts';
import type { PathLayer } from '../k8s/layers.ts';
export type PathState = 'pass' | 'fail' | 'unknown';

export interface Bar {
  label: string;
  used: string;
  hard: string;
  free: string;
  /** used / hard in [0, 1] (display only). */
  fraction: number;
  note?: string;
}

export interface Reply {
  kind: 'diagnosis' | 'headroom' | 'whatif' | 'simulation' | 'help' | 'refusal' | 'error' | 'info';
  /** 🚫 rejected · ⏳ pending · 📊 headroom · 🔮 what-if · 💥 runtime · ❓ help · 🔒 refusal · ⚠️ error · ℹ️ info */
  icon: string;
  /** First line: the layer and the object, in words anyone on the team understands. */
  headline: string;
  /** The admission path at a glance: LimitRange ✓ → ResourceQuota ✗ → Scheduler · */
  path?: { layer: PathLayer; state: PathState }[];
  /** The numbers. */
  table?: { columns: string[]; rows: string[][] };
  bars?: Bar[];
  /** Body lines, plain text (renderers escape). */
  lines: string[];
  fixes: Fix[];
  /** One line of why, after the fixes. */
  why?: string;
  /** The exact Kubernetes text (collapsed / secondary). */
  raw?: string;
  /** What could not be seen (RBAC, timeout) or was cut. */
  gaps: string[];
}

export interface Answer {
  replies: Reply[];
  /** Namespaces this answer reads or names (the access policy checks them before anything is shown). */
  namespaces: string[];
  /** Machine form for `--json` (docs/contract.md), when the command has one. */
  json?: unknown;
}

export function emptyReply(kind: Reply['kind'], icon: string, headline: string): Reply {
  return { kind, icon, headline, lines: [], fixes: [], gaps: [] };
}

/** Simulation results as the renderers see them (the engine's type, passed through answer/). */
export type { SimResult } from '../engine/simulate.ts';
