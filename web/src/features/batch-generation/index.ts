// What other features may use of this one (the linter allows only this file across features).
export { useBatches } from './api';
