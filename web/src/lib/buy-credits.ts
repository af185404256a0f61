import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from './api';
import { paths } from './paths';

/** The toast action every "not enough credits" message carries: straight to Billing. */
export function useBuyCreditsAction() {
  const navigate = useNavigate();
  return useMemo(() => ({ label: 'Buy credits', onClick: () => navigate(paths.billing) }), [navigate]);
}

/** The server's 402: the balance did not cover the request. */
export const isInsufficientCredits = (error: unknown) => error instanceof ApiError && error.code === 'INSUFFICIENT_CREDITS';
