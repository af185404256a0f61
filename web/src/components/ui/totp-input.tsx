import { Input, Label } from './field';

/**
 * The 6-digit one-time code field (an authenticator app's TOTP code, or a code sent by email): digits only, with the
 * browser's one-time-code autofill. Used by sign-in's code steps and by Settings' two-factor setup.
 */
export function TotpInput(props: {
  id: string;
  label: string;
  value: string;
  onChange: (digits: string) => void;
  placeholder?: string;
  autoFocus?: boolean;
  className?: string;
}) {
  return (
    <div>
      <Label htmlFor={props.id}>{props.label}</Label>
      <Input
        id={props.id}
        required
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        title="6 digits"
        maxLength={6}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value.replace(/\D/g, ''))}
        placeholder={props.placeholder}
        autoFocus={props.autoFocus}
        className={props.className}
      />
    </div>
  );
}
