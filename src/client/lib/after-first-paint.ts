/**
 * Runs `start` once the browser has painted the server's HTML: on the task after the next frame.
 * The pre-rendered pages load their JavaScript from here, so nothing the first paint does not need
 * (React, the page's code) is fetched or run before the text is on screen (docs/decisions/019).
 * A page opened in a background tab paints, and so starts, when it is first shown.
 */
export function afterFirstPaint(start: () => void): void {
  requestAnimationFrame(() => setTimeout(start, 0));
}
