/**
 * Loads a pre-rendered page's code once the browser has painted the server's HTML (on the task
 * after its first contentful paint is reported), so nothing the first paint does not need is
 * fetched or run before the text is on screen (docs/decisions/020). A page opened in a background
 * tab starts when shown.
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
  whenPainted(() =>
    setTimeout(() => {
      void load().then(() => {
        document.removeEventListener('click', keep, true);
        for (const button of tapped) if (button.isConnected) button.click();
      });
    }, 0),
  );
}

/**
 * Loads React's own code, then the page's in a later task. A module graph is evaluated in one
 * task, and React DOM's evaluation was most of the one task of ~16 ms (at full speed; four times
 * that in Lighthouse's mobile run) that evaluating the two together took: apart, neither crosses
 * the 50 ms of a long task on a slow phone (docs/decisions/020).
 */
export function afterReact<T>(loadPage: () => Promise<T>): () => Promise<T> {
  return () =>
    import('./hydrate')
      .then(() => new Promise((next) => setTimeout(next, 0)))
      .then(loadPage);
}

/**
 * Calls `painted` once the browser reports the page's first contentful paint: the frame is on
 * screen then, not merely drawn. A frame reaches the screen some time after its animation-frame
 * callbacks run, and code requested in between finished before the paint counted as shown:
 * Lighthouse's simulation then puts its download before the largest paint (the hero's headline),
 * up to 0.5 s on its mobile run. Where paint timing is missing: at the next frame, as before.
 */
function whenPainted(painted: () => void): void {
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    requestAnimationFrame(painted);
    return;
  }
  const observer = new PerformanceObserver((entries) => {
    if (!entries.getEntries().some((entry) => entry.name === 'first-contentful-paint')) return;
    observer.disconnect();
    painted();
  });
  // buffered: a paint reported before this line ran is delivered too
  observer.observe({ type: 'paint', buffered: true });
}
