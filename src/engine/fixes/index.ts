/**
 * Minimal fixes with exact amounts, each re-simulated before it is offered: generation per layer
 * (quota.ts, must-specify.ts, limitrange.ts, unschedulable.ts), verification (verify.ts), and the
 * owners and pod edits they share.
 */
export type { Candidate, FixWho, PodOrigin, VerifiedFix } from './types.ts';
export { ownerOf, refOf, quotaHolders, podsToDelete, type Holder } from './owners.ts';
export { formatMemoryFloor } from './pod-edit.ts';
export { verifyCandidates } from './verify.ts';
export { quotaExceededFixes } from './quota.ts';
export { mustSpecifyFixes } from './must-specify.ts';
export { limitRangeFixes } from './limitrange.ts';
export { nodeGaps, unschedulableFixes, type NodeGap } from './unschedulable.ts';
