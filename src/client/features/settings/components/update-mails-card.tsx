import { Mail } from 'lucide-react';
import { useId, useState } from 'react';
import { Card } from '@client/components/ui/card';
import { notifyError } from '@client/lib/notify';
import { useAnnouncementMails, useSetAnnouncementMails } from '../api/announcement-mails';
import { SettingsCardHeader } from './detail-list';

/** Whether the member gets the vendor's updates (What's new) by e-mail; they show on the dashboard either way. */
export function UpdateMailsCard() {
  const id = useId();
  const preference = useAnnouncementMails();
  const change = useSetAnnouncementMails();
  // the box follows the click at once; a refusal puts it back
  const [chosen, setChosen] = useState<boolean | null>(null);
  if (!preference.data) return null;
  const checked = chosen ?? preference.data.announcementMails;
  return (
    <Card aria-labelledby={`${id}-title`}>
      <SettingsCardHeader icon={<Mail aria-hidden="true" className="h-5 w-5" />} title="Product updates" titleId={`${id}-title`} description="What's new always shows on your dashboard." />
      <label className="mt-4 flex items-center gap-3 text-sm">
        <input
          type="checkbox"
          checked={checked}
          onChange={(event) => {
            const on = event.target.checked;
            setChosen(on);
            change.mutate(on, {
              onError: () => {
                setChosen(null);
                notifyError({ title: 'Error', description: 'Could not save your choice. Please try again.' });
              },
            });
          }}
        />
        E-mail me product updates
      </label>
    </Card>
  );
}
