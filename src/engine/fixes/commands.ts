/** The commands fixes print. */

export function kubectlSetResources(
  ns: string,
  ref: string | undefined,
  container: string,
  which: 'requests' | 'limits',
  resource: string,
  value: string,
): string | undefined {
  if (!ref || ref.startsWith('pod/')) return undefined;
  return `kubectl -n ${ns} set resources ${ref} -c ${container} --${which}=${resource}=${value}`;
}

export function quotaPatch(ns: string, quota: string, resource: string, value: string): string {
  return `kubectl -n ${ns} patch resourcequota ${quota} --type merge -p '{"spec":{"hard":{"${resource}":"${value}"}}}'`;
}
