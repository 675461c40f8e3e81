export { RetentionReportPage } from './retention-report-page';
