/**
 * Which layer decided an admission outcome, and how the API server words a Forbidden one. (The three
 * result shapes stay with their layers: admission's AdmissionResult, the scheduler's ScheduleResult and
 * a scheduler plugin's PluginStatus; the unused generic `Status` shape that was here is gone.)
 */
export type { DecisionLayer } from '../k8s/layers.ts';

/** How the API server names an object in errors: `pods "web"`, `deployments.apps "web"`. */
export function qualifiedResource(resource: string, group: string): string {
  return group ? `${resource}.${group}` : resource;
}

export function forbidden(resource: string, group: string, name: string, message: string): string {
  return `${qualifiedResource(resource, group)} "${name}" is forbidden: ${message}`;
}
