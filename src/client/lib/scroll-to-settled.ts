// Scrolling to a section of a long page. Everything with a size we know keeps its room before it
// loads, but late layout can still move the target while the smooth scroll runs (an image of an
// unknown size, a web font, a slow machine): the scroll then stops where the target used to be.
// So for a short while after the jump, each image that finishes loading above the target aims
// the scroll again. The user scrolling or typing takes over at once.

/** How long after the last aim a late image still re-aims the scroll. */
export const SCROLL_SETTLE_MS = 2500;

const SCROLL_OPTIONS: ScrollIntoViewOptions = { behavior: 'smooth', block: 'start' };
const USER_TAKES_OVER = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Smooth-scrolls `target` to the top of the view and keeps it there while images above it settle.
 * Returns a function that stops following (call it before the next jump and on unmount).
 */
export function scrollToSettled(target: Element, settleMs = SCROLL_SETTLE_MS): () => void {
  const doc = target.ownerDocument;
  const win = doc.defaultView;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const aim = () => {
    target.scrollIntoView?.(SCROLL_OPTIONS);
    clearTimeout(timer);
    timer = setTimeout(stop, settleMs);
  };

  const onLoad = (event: Event) => {
    const source = event.target;
    // Only an element before the target in the page can push it down.
    if (source instanceof Element && source.tagName === 'IMG' && source.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING) {
      aim();
    }
  };

  function stop() {
    clearTimeout(timer);
    doc.removeEventListener('load', onLoad, true);
    for (const type of USER_TAKES_OVER) win?.removeEventListener(type, stop, true);
  }

  // `load` does not bubble: listen in the capture phase to hear every image of the page.
  doc.addEventListener('load', onLoad, true);
  for (const type of USER_TAKES_OVER) win?.addEventListener(type, stop, { capture: true, passive: true });
  aim();
  return stop;
}
