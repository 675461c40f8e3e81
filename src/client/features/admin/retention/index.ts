export { MemberCancellations, RetentionPage } from './retention-page';
