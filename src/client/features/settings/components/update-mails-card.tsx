import { Mail } from 'lucide-react';
import { useId } from 'react';
import { Card } from '@client/components/ui/card';
import { notifyError } from '@client/lib/notify';
import { useAnnouncementMails, useSetAnnouncementMails } from '../api/announcement-mails';
import { SettingsCardHeader } from './detail-list';

/** Whether the member gets the vendor's updates (What's new) by e-mail; they show on the dashboard either way. */
export function UpdateMailsCard() {
  const id = useId();
  const preference = useAnnouncementMails();
  const change = useSetAnnouncementMails();
  if (!preference.data) return null;
  return (
    <Card aria-labelledby={`${id}-title`}>
      <SettingsCardHeader icon={<Mail aria-hidden="true" className="h-5 w-5" />} title="Product updates" titleId={`${id}-title`} description="What's new always shows on your dashboard." />
      <label className="mt-4 flex items-center gap-3 text-sm">
        <input
          type="checkbox"
          checked={preference.data.announcementMails}
          disabled={change.isPending}
          onChange={(event) =>
            change.mutate(event.target.checked, { onError: () => notifyError({ title: 'Error', description: 'Could not save your choice. Please try again.' }) })
          }
        />
        E-mail me product updates
      </label>
    </Card>
  );
}
