import { Input, Label } from '@client/components/ui/input';

/** The e-mail paid with, shown but not editable: the account belongs to it. */
export function PaidEmailField({ id, email }: { id: string; email: string }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Email</Label>
      <Input id={id} type="email" value={email} disabled readOnly autoComplete="username" />
    </div>
  );
}
