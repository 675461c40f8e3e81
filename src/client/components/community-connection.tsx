// A member's own account on one of the shop's communities (each integration's page shows one): the
// same card and the same connected view for each, so a community added later looks and behaves as
// the others do.
import { Link2, Unlink } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';

/** The card: its title, what went wrong last (if anything), then the state of the connection. */
export function ConnectionCard({ id, title, alert, children }: { id: string; title: string; alert: ReactNode; children: ReactNode }) {
  return (
    <Card role="region" aria-labelledby={id} className="mt-6 p-8">
      <h2 id={id} className="text-xl font-semibold text-white">
        {title}
      </h2>
      {alert}
      <div className="mt-4">{children}</div>
    </Card>
  );
}

type ConnectedAccountProps = {
  /** The account's name as the community shows it. */
  name: string;
  /** What the account holds there (its roles, its chats…). */
  children: ReactNode;
  switchLabel: string;
  disconnectLabel: string;
  busy: boolean;
  onSwitch: () => void;
  onDisconnect: () => void;
};

/** "Connected as …", what the account holds, and the two ways out: another account, or none. */
export function ConnectedAccount({ name, children, switchLabel, disconnectLabel, busy, onSwitch, onDisconnect }: ConnectedAccountProps) {
  return (
    <div className="space-y-4">
      <p className="text-base text-foreground">
        Connected as <strong className="font-semibold text-white">{name}</strong>
      </p>
      {children}
      <div className="flex flex-wrap gap-3">
        <Button variant="outline" disabled={busy} onClick={onSwitch}>
          <Link2 aria-hidden="true" className="h-4 w-4" />
          {switchLabel}
        </Button>
        <Button variant="ghost" className="text-red-300 hover:bg-danger/10" disabled={busy} onClick={onDisconnect}>
          <Unlink aria-hidden="true" className="h-4 w-4" />
          {disconnectLabel}
        </Button>
      </div>
    </div>
  );
}
