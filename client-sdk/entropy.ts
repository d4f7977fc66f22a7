/**
 * The player's share of the game's seed (PROTOCOL v2 "Fair play you can check"): 32 hex
 * characters sent with every create and join. The server commits to its own seed before it sees
 * any player's entropy, so with this the server alone cannot choose the deal.
 */
type RandomSource = { getRandomValues?: (bytes: Uint8Array) => Uint8Array };

export function freshEntropy(): string {
  const bytes = new Uint8Array(16);
  const crypto = (globalThis as { crypto?: RandomSource }).crypto;
  if (crypto?.getRandomValues) crypto.getRandomValues(bytes);
  // React Native has no Web Crypto without a polyfill (react-native-get-random-values): weaker,
  // but this share only has to be unknown to the server before the game, not secret after it.
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
