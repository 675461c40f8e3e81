export { AlertsBanner } from './alerts-banner';
export { ALERTS_QUERY_KEY, useOperatorAlerts } from './alerts-api';
