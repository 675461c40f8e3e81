export { SandboxToolsPage } from './sandbox-tools-page';
