import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { activationError } from '@shared/error-messages';
import { tradingViewUsernameFormSchema } from '@shared/validation';
import type { TradingViewUsernameFormInput } from '@shared/validation';
import { Button } from '@client/components/ui/button';
import { FieldError, Input, Label } from '@client/components/ui/input';
import { toErrorInput } from '@client/lib/api/error-input';
import { subscriptionKeys } from '@client/lib/api/subscription';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { TRADINGVIEW_STATUS_QUERY_KEY } from '../api/get-tradingview-status';
import { useUpdateTradingviewUsername } from '../api/update-tradingview-username';

export const USERNAME_UPDATED_TITLE = 'TradingView Username Updated';

/** Inline form that moves the member's indicator access to a corrected TradingView username. */
export function TradingviewUsernameForm({ current, changeDays = null, onDone }: { current: string | null; changeDays?: number | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const update = useUpdateTradingviewUsername();
  const form = useForm<TradingViewUsernameFormInput>({
    resolver: zodResolver(tradingViewUsernameFormSchema),
    defaultValues: { tradingviewUsername: current ?? '' },
  });
  const error = form.formState.errors.tradingviewUsername?.message;

  const submit = form.handleSubmit(async ({ tradingviewUsername }) => {
    try {
      const result = await update.mutateAsync({ tv_username: tradingviewUsername });
      const username = result.verifiedUsername;
      notifySuccess({
        title: USERNAME_UPDATED_TITLE,
        description: `Indicator access now goes to ${username}. It usually appears under Invite-only scripts within minutes.`,
      });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
        queryClient.invalidateQueries({ queryKey: TRADINGVIEW_STATUS_QUERY_KEY }),
      ]);
      onDone();
    } catch (failure) {
      notifyError(activationError(toErrorInput(failure)));
    }
  });

  return (
    <form onSubmit={submit} noValidate className="mt-3 rounded-xl border border-border bg-black/20 p-4" aria-label="Change TradingView username">
      <Label htmlFor="tradingview-username">New TradingView username</Label>
      <Input
        id="tradingview-username"
        className="mt-2"
        autoComplete="off"
        spellCheck={false}
        autoFocus
        placeholder="e.g. trader_jane"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'tradingview-username-error' : 'tradingview-username-hint'}
        disabled={update.isPending}
        {...form.register('tradingviewUsername')}
      />
      <div className="mt-2">
        <FieldError id="tradingview-username-error" message={error} />
        {!error ? (
          <p id="tradingview-username-hint" className="text-xs text-muted">
            Enter it exactly as it appears on your TradingView profile. Saving moves your indicator access from the
            old username to this one.
            {current && changeDays ? ` You can change it once every ${changeDays === 1 ? 'day' : `${changeDays} days`}.` : ''}
          </p>
        ) : null}
      </div>
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Username'}
        </Button>
      </div>
    </form>
  );
}
