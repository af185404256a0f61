/** An API key of the API screen. Generated in the browser and kept only in memory (never persisted). */
export interface ApiKey {
  id: string;
  key: string;
  name: string;
  createdAt: string;
  lastUsed: string | null;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_LENGTH = 32;
export const API_KEY_PREFIX = 'ml_';

export function generateApiKey(name: string): ApiKey {
  const random = crypto.getRandomValues(new Uint8Array(KEY_LENGTH));
  // 248 is the largest multiple of 62 below 256; values above it would bias the alphabet, so they are redrawn.
  const chars = Array.from(random, (byte) => {
    let value = byte;
    while (value >= 248) value = crypto.getRandomValues(new Uint8Array(1))[0]!;
    return ALPHABET[value % ALPHABET.length];
  });
  return {
    id: crypto.randomUUID(),
    key: `${API_KEY_PREFIX}${chars.join('')}`,
    name,
    createdAt: new Date().toISOString(),
    lastUsed: null,
  };
}

export const maskKey = (key: string) => `${key.slice(0, API_KEY_PREFIX.length + 4)}${'•'.repeat(16)}${key.slice(-4)}`;
