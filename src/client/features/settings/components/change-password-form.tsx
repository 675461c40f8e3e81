import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { accountPasswordSchema, PASSWORD_MAX_LENGTH, VALIDATION_MESSAGES } from '@shared/validation';
import { Button } from '@client/components/ui/button';
import { FieldError, Input, Label } from '@client/components/ui/input';
import { ApiRequestError } from '@client/lib/api/api-client';
import { useAuth } from '@client/lib/auth-state';
import { notifySuccess } from '@client/lib/notify';
import { useChangePassword } from '../api/change-password';

export const CHANGE_PASSWORD_TEXTS = {
  title: 'Change password',
  current: 'Current Password',
  next: 'New Password',
  confirm: 'Confirm New Password',
  submit: 'Change Password',
  busy: 'Changing...',
  wrongCurrent: 'Your current password is not right.',
  sameAsCurrent: 'Choose a password you do not use now.',
  failed: 'Could not change your password. Please try again.',
  changed: { title: 'Password changed', description: 'Your other devices were signed out.' },
} as const;

const changePasswordFormSchema = z
  .object({
    currentPassword: z.string().min(1, { error: VALIDATION_MESSAGES.passwordRequired }),
    newPassword: accountPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((value) => value.newPassword === value.confirmPassword, { error: VALIDATION_MESSAGES.passwordsDoNotMatch, path: ['confirmPassword'], when: () => true })
  .refine((value) => value.newPassword !== value.currentPassword, { error: CHANGE_PASSWORD_TEXTS.sameAsCurrent, path: ['newPassword'], when: () => true });

type ChangePasswordInput = z.infer<typeof changePasswordFormSchema>;

/** The error of a refused change, in words: a wrong current password is named beside the form. */
function changeError(error: unknown): string {
  if (error instanceof ApiRequestError && error.code === 'INVALID_PASSWORD') return CHANGE_PASSWORD_TEXTS.wrongCurrent;
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500 && error.message) return error.message;
  return CHANGE_PASSWORD_TEXTS.failed;
}

/** Settings → Security: a new password for the current one; every other device is signed out. */
export function ChangePasswordForm() {
  const { refreshSession } = useAuth();
  const change = useChangePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    mode: 'onSubmit',
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await change.mutateAsync({ currentPassword: values.currentPassword, newPassword: values.newPassword });
    } catch (error) {
      setFailure(changeError(error));
      return;
    }
    form.reset();
    notifySuccess(CHANGE_PASSWORD_TEXTS.changed);
    // the answer set this browser's new session cookie
    await refreshSession();
  });

  const field = (name: keyof ChangePasswordInput, id: string, label: string, autoComplete: string) => (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="password"
        autoComplete={autoComplete}
        maxLength={PASSWORD_MAX_LENGTH}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-error` : undefined}
        {...form.register(name, { onChange: () => setFailure(null) })}
      />
      <FieldError id={`${id}-error`} message={errors[name]?.message} />
    </div>
  );

  return (
    <form noValidate aria-label={CHANGE_PASSWORD_TEXTS.title} onSubmit={(event) => void onSubmit(event)} className="space-y-3 rounded-xl border border-border bg-black/20 p-4">
      <div className="text-sm">
        <p className="font-medium">{CHANGE_PASSWORD_TEXTS.title}</p>
        <p className="mt-0.5 text-muted">Your other devices are signed out; this browser stays signed in.</p>
      </div>
      {field('currentPassword', 'current-password', CHANGE_PASSWORD_TEXTS.current, 'current-password')}
      {field('newPassword', 'new-password', CHANGE_PASSWORD_TEXTS.next, 'new-password')}
      {field('confirmPassword', 'confirm-new-password', CHANGE_PASSWORD_TEXTS.confirm, 'new-password')}
      {failure ? (
        <p role="alert" className="rounded-lg border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-red-300">
          {failure}
        </p>
      ) : null}
      <Button type="submit" variant="secondary" disabled={change.isPending}>
        {change.isPending ? CHANGE_PASSWORD_TEXTS.busy : CHANGE_PASSWORD_TEXTS.submit}
      </Button>
    </form>
  );
}
