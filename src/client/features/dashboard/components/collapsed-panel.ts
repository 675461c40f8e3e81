// Whether this browser keeps the Security Score's alert list folded away, per user: a member who
// folded it does not want it back open on every page load.

const keyFor = (userId: string) => `candlewise.security.collapsed.${userId}`;

export function readCollapsed(userId: string): boolean {
  try {
    return window.localStorage.getItem(keyFor(userId)) === 'true';
  } catch {
    return false;
  }
}

export function writeCollapsed(userId: string, collapsed: boolean): void {
  try {
    if (collapsed) window.localStorage.setItem(keyFor(userId), 'true');
    else window.localStorage.removeItem(keyFor(userId));
  } catch {
    // Private mode or a full storage: the choice then lasts until the page is reloaded.
  }
}
