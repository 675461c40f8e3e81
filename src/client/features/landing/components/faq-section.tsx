import { ChevronDownIcon } from './icons';
import { cx } from './page-kit';
import { useId, useState } from 'react';
import { TRIAL_FAQ_QUESTION, trialFaqAnswer } from '@shared/trials';
import { useSiteSettings } from '@client/lib/site-settings';
import { FAQ_ITEMS } from '../content';
import { SECTION_IDS } from '../scroll';

/** FAQ accordion (7 items, the first open). Hand-written: lighter than a library for one list. */
export function FaqSection() {
  const [open, setOpen] = useState<number | null>(0);
  const baseId = useId();
  const { trial, catalogue } = useSiteSettings();
  // the trial's question follows "Can I cancel at any time?" while a plan on sale has a trial
  const trialAnswer = trial ? trialFaqAnswer(trial, catalogue) : null;
  const items = trialAnswer ? [...FAQ_ITEMS.slice(0, 3), { question: TRIAL_FAQ_QUESTION, answer: trialAnswer }, ...FAQ_ITEMS.slice(3)] : FAQ_ITEMS;
  return (
    <section id={SECTION_IDS.faq} aria-labelledby="faq-heading" className="scroll-mt-28 px-4 py-14 sm:px-6 md:py-20">
      <div className="mx-auto max-w-3xl">
        <h2 id="faq-heading" className="text-center text-3xl font-bold tracking-tight text-white md:text-4xl">
          Frequently Asked Questions
        </h2>
        <div className="mt-10 divide-y divide-white/10 rounded-2xl border border-white/10 bg-card">
          {items.map((item, index) => {
            const expanded = open === index;
            const buttonId = `${baseId}-q${index}`;
            const panelId = `${baseId}-a${index}`;
            return (
              <div key={item.question}>
                <h3>
                  <button
                    id={buttonId}
                    type="button"
                    aria-expanded={expanded}
                    aria-controls={panelId}
                    onClick={() => setOpen(expanded ? null : index)}
                    className="flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-semibold text-white transition-colors hover:bg-white/[0.03] md:px-6 md:py-5"
                  >
                    {item.question}
                    <ChevronDownIcon className={cx('h-5 w-5 flex-none text-muted transition-transform', expanded && 'rotate-180')} />
                  </button>
                </h3>
                <div id={panelId} role="region" aria-labelledby={buttonId} hidden={!expanded} className="px-5 pb-5 text-[15px] leading-relaxed text-foreground/75 md:px-6">
                  {item.answer}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
