// Two tiny helpers the landing page keeps to itself so its first chunk needs no UI-kit chunk.

/** Joins class names (the landing page does without tailwind-merge to stay small). */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}

/** The page-level 'Loading...' spinner, drawn here so the landing chunk needs no UI-kit chunk. */
export function LoadingScreen() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <span role="status" className="inline-flex items-center gap-3">
        <span aria-hidden="true" className="h-6 w-6 animate-spin rounded-full border-2 border-white/20 border-t-primary" />
        <span className="text-sm text-muted">Loading...</span>
      </span>
    </div>
  );
}
