// Dismissed security alerts live in this browser's localStorage, per user. Alert ids are derived
// from the newest event behind an alert, so an id stays the same across refreshes and a new event
// produces a new id: a dismissal hides exactly what was seen, and anything new shows again.
// Keeping it client-side needs no new table; the cost is that another device shows the alert
// once more, which is acceptable (arguably right) for security notices.

const keyFor = (userId: string) => `candlewise.security.dismissed.${userId}`;

export function readDismissed(userId: string): string[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(keyFor(userId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function writeDismissed(userId: string, ids: readonly string[]): void {
  try {
    window.localStorage.setItem(keyFor(userId), JSON.stringify(ids));
  } catch {
    // Private mode or a full storage: the dismissal then lasts until the page is reloaded.
  }
}

/** Drops ids of alerts the server no longer reports, so the stored list stays small. */
export function pruneDismissed(dismissed: readonly string[], currentIds: readonly string[]): string[] {
  const current = new Set(currentIds);
  return dismissed.filter((id) => current.has(id));
}
