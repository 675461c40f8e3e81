import { Eye, EyeOff } from 'lucide-react';
import type { InputHTMLAttributes } from 'react';
import { Input } from '@client/components/ui/input';

type PasswordFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  visible: boolean;
  /** Shows the eye button that toggles visibility; omit for a field that follows another's toggle. */
  onToggle?: () => void;
};

/** A password input whose visibility is controlled by the form (one toggle may drive two fields). */
export function PasswordField({ visible, onToggle, ...props }: PasswordFieldProps) {
  return (
    <div className="relative">
      <Input {...props} type={visible ? 'text' : 'password'} className={onToggle ? 'pr-11' : undefined} />
      {onToggle ? (
        <button
          type="button"
          onClick={onToggle}
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-muted transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60"
        >
          {visible ? <EyeOff aria-hidden="true" className="h-4 w-4" /> : <Eye aria-hidden="true" className="h-4 w-4" />}
        </button>
      ) : null}
    </div>
  );
}
