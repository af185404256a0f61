// The account password policy, defined once: the cloud user pool (lib/constructs/auth.ts) is created with it, the
// twin's cognito-local enforces it wherever a password is set (lib/local/cognito-local.ts), and the sign-up form
// lists its rules before submit and names the one a password breaks.

export const PASSWORD_POLICY = {
  minLength: 8,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: true,
} as const;

/**
 * Cognito's symbol characters (space aside: the form's rules never need it, and Cognito takes it only inside a
 * password, never at its ends).
 */
const SYMBOLS = String.raw`\^$*.\[\]{}()?"!@#%&/\\,><':;|_~` + '`=+\\-';

export interface PasswordRule {
  id: 'length' | 'lowercase' | 'uppercase' | 'digit' | 'symbol';
  /** What the form lists before submit. */
  label: string;
  /** Why a password is refused, as Cognito words it after "Password did not conform with policy: ". */
  refusal: string;
  /** Met when the password matches. */
  pattern: RegExp;
}

export const PASSWORD_RULES: readonly PasswordRule[] = [
  { id: 'length', label: `At least ${PASSWORD_POLICY.minLength} characters`, refusal: 'Password not long enough', pattern: new RegExp(`^[\\s\\S]{${PASSWORD_POLICY.minLength},}$`, 'u') },
  ...(PASSWORD_POLICY.requireUppercase ? [{ id: 'uppercase', label: 'An uppercase letter', refusal: 'Password must have uppercase characters', pattern: /[A-Z]/ } as const] : []),
  ...(PASSWORD_POLICY.requireLowercase ? [{ id: 'lowercase', label: 'A lowercase letter', refusal: 'Password must have lowercase characters', pattern: /[a-z]/ } as const] : []),
  ...(PASSWORD_POLICY.requireDigits ? [{ id: 'digit', label: 'A number', refusal: 'Password must have numeric characters', pattern: /[0-9]/ } as const] : []),
  ...(PASSWORD_POLICY.requireSymbols ? [{ id: 'symbol', label: 'A symbol, like ! or #', refusal: 'Password must have symbol characters', pattern: new RegExp(`[${SYMBOLS}]`) } as const] : []),
];

/** The first rule a password breaks, or undefined when it meets them all. */
export const brokenPasswordRule = (password: string): PasswordRule | undefined => PASSWORD_RULES.find((rule) => !rule.pattern.test(password));

/** Cognito's InvalidPasswordException message for a broken rule. */
export const passwordRefusal = (rule: PasswordRule) => `Password did not conform with policy: ${rule.refusal}`;
