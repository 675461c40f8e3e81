// The console's "Mails" card (decision 056): the switches of the checkout recovery mail, the
// win-back mail (its days and churned-only code) and the set-up reminders, saved together. The
// switches and their labels are the server's: a community integration brings its reminder's.
import { useId, useState, type FormEvent } from 'react';
import { WINBACK_DAYS_MAX, WINBACK_DAYS_MIN } from '@shared/member-mails';
import type { MailSettingsView } from '@shared/member-mails-contract';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { CONSOLE_FIELD, LoadError } from '@client/components/console/admin-page';
import { FormFooter, type FormResult } from '../components/form-footer';
import { useMailSettings, useSaveMailSettings } from './mails-api';

export function MailsCard() {
  const settings = useMailSettings();
  if (settings.isPending) return <Spinner label="Loading mail settings..." />;
  if (settings.isError) return <LoadError what="the mail settings" />;
  return <MailsForm saved={settings.data} />;
}

function MailsForm({ saved }: { saved: MailSettingsView }) {
  const id = useId();
  const save = useSaveMailSettings();
  const [switches, setSwitches] = useState(saved.switches);
  const [days, setDays] = useState(String(saved.winbackDays));
  const [code, setCode] = useState(saved.winbackCode ?? '');
  const [result, setResult] = useState<FormResult>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setResult(null);
    try {
      await save.mutateAsync({ switches, winbackDays: Number(days), winbackCode: code || null });
      setResult({ ok: true, message: 'Mail settings saved.' });
    } catch (error) {
      setResult({ ok: false, message: error instanceof ApiRequestError ? error.message : 'The mail settings could not be saved.' });
    }
  }

  return (
    <Card aria-labelledby={`${id}-title`} className="space-y-4">
      <div>
        <CardTitle id={`${id}-title`}>Mails</CardTitle>
        <CardDescription>Mails that bring buyers and members back. Each has an unsubscribe link; members also choose them in Settings.</CardDescription>
      </div>
      <form className="space-y-3" onSubmit={(event) => void submit(event)} noValidate>
        {/* a reminder for an integration this shop does not run is not offered (its stored value is sent back as it is) */}
        {saved.mails
          .filter((mail) => mail.offered)
          .map(({ name, label }) => (
            <label key={name} className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={switches[name] === true} onChange={(event) => setSwitches({ ...switches, [name]: event.target.checked })} />
              {label}
            </label>
          ))}
        <div className="flex flex-wrap items-end gap-3">
          <label className="grid gap-1 text-sm">
            Win-back: days after access ends
            <input className={`${CONSOLE_FIELD} w-24`} type="number" min={WINBACK_DAYS_MIN} max={WINBACK_DAYS_MAX} value={days} onChange={(event) => setDays(event.target.value)} />
          </label>
          <label className="grid gap-1 text-sm">
            Win-back code
            <select className={CONSOLE_FIELD} value={code} onChange={(event) => setCode(event.target.value)}>
              <option value="">None</option>
              {saved.winbackCodes.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </label>
        </div>
        {saved.winbackCodes.length === 0 ? <p className="text-sm text-muted-foreground">Create a promotion code for returning members only to offer one.</p> : null}
        <FormFooter label="Save mails" busy={save.isPending} result={result} />
      </form>
    </Card>
  );
}
