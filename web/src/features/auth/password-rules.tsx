import { brokenPasswordRule, PASSWORD_RULES, type PasswordRule } from '@contracts/password-policy';
import { Check, Circle } from 'lucide-react';

export const PASSWORD_RULES_ID = 'password-rules';
export const PASSWORD_PROBLEM_ID = 'password-problem';

/** What the form says when a password breaks a rule: the rule, in words. */
export const passwordProblem = (rule: PasswordRule) => `Password needs ${rule.label.charAt(0).toLowerCase()}${rule.label.slice(1)}.`;

/** The first rule the password breaks, as the form words it; undefined when it meets them all. */
export const passwordProblemOf = (password: string) => {
  const broken = brokenPasswordRule(password);
  return broken && passwordProblem(broken);
};

/** The account password's rules, listed before submit and ticked off as they are met. */
export function PasswordRules({ password, problem }: { password: string; problem?: string }) {
  return (
    <div className="text-sm">
      <ul id={PASSWORD_RULES_ID} aria-label="Password rules" className="mt-2 grid gap-1 text-slate-700 sm:grid-cols-2">
        {PASSWORD_RULES.map((rule) => {
          const met = rule.pattern.test(password);
          return (
            <li key={rule.id} className={met ? 'flex items-center gap-2 text-emerald-700' : 'flex items-center gap-2'}>
              {met ? <Check className="h-3.5 w-3.5" aria-hidden="true" /> : <Circle className="h-3.5 w-3.5" aria-hidden="true" />}
              {rule.label}
              <span className="sr-only">{met ? ' (met)' : ' (not met yet)'}</span>
            </li>
          );
        })}
      </ul>
      {problem && (
        <p id={PASSWORD_PROBLEM_ID} role="alert" className="mt-2 rounded-lg border border-red-200 bg-red-50 p-2 text-red-800">
          {problem}
        </p>
      )}
    </div>
  );
}
