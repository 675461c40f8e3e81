/**
 * Loads a pre-rendered page's code once the browser has painted the server's HTML (on the task
 * after the next frame), so nothing the first paint does not need is fetched or run before the
 * text is on screen (docs/decisions/020). A page opened in a background tab starts when shown.
 *
 * Links work before that, as links. A button does nothing until React has hydrated it, so a tap
 * on one while the code is still on its way (the menu, the hero's button) is held back from React
 * and replayed once `load` settles, which is when the page's buttons are hydrated: the landing
 * page's sections hydrate from a chunk of their own after the header, and React drops a click on
 * HTML it has not hydrated yet. Held, not copied: a button hydrated meanwhile would see it twice
 * (a menu opened and shut again).
 */
export function loadAfterFirstPaint(load: () => Promise<unknown>): void {
  const tapped: HTMLButtonElement[] = [];
  const keep = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (!button) return;
    event.stopPropagation();
    tapped.push(button);
  };
  document.addEventListener('click', keep, true);
  requestAnimationFrame(() =>
    setTimeout(() => {
      void load().then(() => {
        document.removeEventListener('click', keep, true);
        for (const button of tapped) if (button.isConnected) button.click();
      });
    }, 0),
  );
}
