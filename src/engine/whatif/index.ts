/** The what-if questions, one file per kind (engine/whatif/), each a change run through engine/converge.ts. */
export * from './shared.ts';
export * from './scale.ts';
export * from './quota.ts';
export * from './requests.ts';
export * from './drain.ts';
export * from './rollout.ts';
export * from './limitrange.ts';
export * from './apply.ts';
export * from './change.ts';
