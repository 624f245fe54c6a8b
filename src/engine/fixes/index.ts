/**
 * Minimal fixes with exact amounts, each verified through the controllers before it is offered:
 * generation per layer (quota.ts, must-specify.ts, limitrange.ts, unschedulable.ts), the changes they
 * make (changes.ts), ranking by who and cost (rank.ts), verification (verify.ts), and the entry point
 * for one finding (generate.ts).
 */
export type { FixContext, FixWho, Plan, VerifiedFix } from './types.ts';
export { ownerOf, refOf, quotaHolders, podsToDelete, type Holder } from './owners.ts';
export { formatMemoryFloor } from './pod-edit.ts';
export { planCommand, verifyPlans } from './verify.ts';
export { rankPlans } from './rank.ts';
export { quotaCounts, quotaPlans } from './quota.ts';
export { mustSpecifyPlans, bestEffortMoves } from './must-specify.ts';
export { limitRangePlans } from './limitrange.ts';
export { nodeGaps, noShapeHolds, unschedulablePlans, type NodeGap } from './unschedulable.ts';
export { fixesFor, parseMustSpecify, type FindingFixes } from './generate.ts';
