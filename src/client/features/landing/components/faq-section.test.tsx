import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { addPlan, setActiveCatalogue, updatePlan, type Catalogue, type Edit } from '@shared/catalogue';
import { seedCatalogue } from '@shared/plans';
import { TRIAL_FAQ_QUESTION } from '@shared/trials';
import { renderWithProviders, SETTINGS } from '../test/render-landing';
import { FaqSection } from './faq-section';

// The FAQ's trial answer reads the plans' trial days (decision record 058), not only TRIAL_DAYS.
const edited = (edit: Edit): Catalogue => {
  if ('problem' in edit) throw new Error(edit.problem);
  return edit.catalogue;
};

afterEach(() => setActiveCatalogue(null));

describe('the FAQ trial question', () => {
  it("answers from a plan's own trial days when the shop has no TRIAL_DAYS, and is gone when no plan on sale has a trial", () => {
    const weekly = edited(addPlan(seedCatalogue(), { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'week', count: 1 } }));
    const view = renderWithProviders(<FaqSection />, { settings: { ...SETTINGS, trial: { days: 0, plans: [] }, catalogue: edited(updatePlan(weekly, 'weekly', { trialDays: 3 })) } });
    expect(screen.getByRole('button', { name: TRIAL_FAQ_QUESTION })).toBeInTheDocument();
    view.unmount();
    renderWithProviders(<FaqSection />, { settings: { ...SETTINGS, trial: { days: 0, plans: [] }, catalogue: weekly } });
    expect(screen.queryByRole('button', { name: TRIAL_FAQ_QUESTION })).toBeNull();
  });
});
