// The entry of the pre-rendered legal pages (/disclaimer, /terms-of-service, /privacy-policy,
// /contact): the stylesheet, then React and the page's code once the server's HTML is painted.
// See docs/decisions/020.
import { afterReact, loadAfterFirstPaint } from './lib/after-first-paint';
import './styles/index.css';

loadAfterFirstPaint(afterReact(() => import('./legal-hydrate')));
