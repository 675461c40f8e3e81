// The entry of the pre-rendered landing page (/ and /eu on a first visit). It carries only the
// stylesheet: React and the page's code load once the server's HTML has been painted, so the
// largest paint (the hero's headline) waits for no script. See docs/decisions/015 and 020.
import { afterReact, loadAfterFirstPaint } from './lib/after-first-paint';
import './styles/index.css';

loadAfterFirstPaint(afterReact(() => import('./landing-hydrate').then((page) => page.ready)));
