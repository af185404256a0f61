// What other features may use of this one (the linter allows only this file across features).
export { useOnModelPhotoCost, useOnModelPhotoCosts, usePricingTiers, useTierCost } from './use-pricing-tiers';
