import type { UseFormRegisterReturn } from 'react-hook-form';
import { EMAIL_MAX_LENGTH } from '@shared/validation';
import { FieldError, Input, Label } from '@client/components/ui/input';

type EmailFieldProps = UseFormRegisterReturn<'email'> & {
  id: string;
  error?: string | undefined;
};

/**
 * The labelled e-mail input of the auth forms. The caller passes its `form.register('email', …)`
 * so each form keeps its own edit and blur handling; the error is announced under the field.
 */
export function EmailField({ id, error, ...registration }: EmailFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Email</Label>
      <Input
        id={id}
        type="email"
        inputMode="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="you@example.com"
        maxLength={EMAIL_MAX_LENGTH}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...registration}
      />
      <FieldError id={errorId} message={error} />
    </div>
  );
}
