import { BellRing } from 'lucide-react';
import { useId } from 'react';
import { Card } from '@client/components/ui/card';
import { notifyError } from '@client/lib/notify';
import { useMailPreferences, useSetMailPreference } from '../api/mail-preferences';
import { SettingsCardHeader } from './detail-list';

/** The reminder and offer mails the shop sends (decision 056), each of which the member may turn off. */
export function ReminderMailsCard() {
  const id = useId();
  const preferences = useMailPreferences();
  const change = useSetMailPreference();
  if (!preferences.data || preferences.data.mails.length === 0) return null;
  return (
    <Card aria-labelledby={`${id}-title`}>
      <SettingsCardHeader icon={<BellRing aria-hidden="true" className="h-5 w-5" />} title="Reminders and offers" titleId={`${id}-title`} description="Receipts and account mails always reach you." />
      <div className="mt-4 space-y-2">
        {preferences.data.mails.map((mail) => (
          <label key={mail.kind} className="flex items-center gap-3 text-sm">
            <input
              type="checkbox"
              checked={change.isPending && change.variables.kind === mail.kind ? change.variables.on : mail.on}
              onChange={(event) =>
                change.mutate(
                  { kind: mail.kind, on: event.target.checked },
                  { onError: () => notifyError({ title: 'Error', description: 'Could not save your choice. Please try again.' }) },
                )
              }
            />
            {mail.label}
          </label>
        ))}
      </div>
    </Card>
  );
}
