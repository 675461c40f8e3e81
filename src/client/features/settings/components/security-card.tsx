import { LogOut, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Dialog, DialogContent } from '@client/components/ui/dialog';
import { useAuth } from '@client/lib/auth-state';
import { notifyError } from '@client/lib/notify';
import { useRevokeSessions } from '../api/revoke-sessions';
import { ChangePasswordForm } from './change-password-form';
import { SettingsCardHeader } from './detail-list';

export const SECURITY_TEXTS = {
  button: 'Sign Out of All Devices',
  confirmTitle: 'Sign out of all devices?',
  confirmButton: 'Sign Out Everywhere',
  failed: { title: 'Error', description: 'Could not sign out of all devices. Please try again.' },
} as const;

/** Change password (other devices signed out), and 'Sign Out of All Devices': ends every session of the member, then asks them to sign in. */
export function SecurityCard() {
  const { signOut } = useAuth();
  const revoke = useRevokeSessions();
  const [confirming, setConfirming] = useState(false);

  const signOutEverywhere = async () => {
    try {
      await revoke.mutateAsync();
    } catch {
      notifyError(SECURITY_TEXTS.failed);
      return;
    }
    // This browser's session is gone too: clear local state and go to the sign-in page.
    await signOut('/auth');
  };

  return (
    <Card role="region" aria-labelledby="security-title">
      <SettingsCardHeader
        icon={<ShieldCheck className="h-5 w-5" />}
        title="Security"
        titleId="security-title"
        description="Lost a device or signed in on a shared computer? Change your password or end every session at once."
      />
      <div className="mb-4">
        <ChangePasswordForm />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-6 rounded-xl border border-border bg-black/20 p-4">
        <div className="text-sm">
          <p className="font-medium">Active sessions</p>
          <p className="mt-0.5 text-muted">Signs you out everywhere, including this browser. You will need your password to sign in again.</p>
        </div>
        <Button variant="outline" className="shrink-0 border-danger/40 text-red-300 hover:bg-danger/10" onClick={() => setConfirming(true)}>
          <LogOut aria-hidden="true" className="h-4 w-4" />
          {SECURITY_TEXTS.button}
        </Button>
      </div>

      <Dialog open={confirming} onOpenChange={(open) => !revoke.isPending && setConfirming(open)}>
        <DialogContent
          title={SECURITY_TEXTS.confirmTitle}
          description="Every device signed in to your account, including this one, will be signed out. Your subscription and indicator access are not affected."
        >
          <div className="flex justify-end gap-2">
            <Button variant="ghost" disabled={revoke.isPending} onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button variant="danger" disabled={revoke.isPending} onClick={() => void signOutEverywhere()}>
              {revoke.isPending ? 'Signing Out...' : SECURITY_TEXTS.confirmButton}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
