export { ImportsPage } from './imports-page';
