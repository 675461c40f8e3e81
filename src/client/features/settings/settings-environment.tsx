import { createContext, useContext } from 'react';

/**
 * Leaving the app for the payment provider (checkout, billing portal) is a full page load.
 * It is read from context so component tests can observe it: jsdom cannot navigate.
 */
export type ExternalNavigation = { assign: (url: string) => void };

const browserNavigation: ExternalNavigation = { assign: (url) => window.location.assign(url) };

export const ExternalNavigationContext = createContext<ExternalNavigation>(browserNavigation);

export function useExternalNavigation(): ExternalNavigation {
  return useContext(ExternalNavigationContext);
}
