/**
 * `names` ordered so that each comes after everything it depends on (`edges`: [dependent, dependency]),
 * keeping the given order where the edges leave it free. A name that depends on itself is no
 * constraint. Throws on a cycle, naming the names in it: no order could satisfy them.
 */
export function dependencyOrder(names: readonly string[], edges: readonly (readonly [string, string])[]): string[] {
  const waitingOn = new Map(names.map((name) => [name, new Set<string>()]));
  for (const [dependent, dependency] of edges) {
    if (dependent !== dependency && waitingOn.has(dependency)) waitingOn.get(dependent)?.add(dependency);
  }
  const ordered: string[] = [];
  while (waitingOn.size > 0) {
    const ready = [...waitingOn].filter(([, dependencies]) => dependencies.size === 0).map(([name]) => name);
    if (ready.length === 0) throw new Error(`these depend on each other in a circle: ${[...waitingOn.keys()].join(', ')}`);
    for (const name of ready) {
      ordered.push(name);
      waitingOn.delete(name);
    }
    for (const dependencies of waitingOn.values()) for (const name of ready) dependencies.delete(name);
  }
  return ordered;
}
