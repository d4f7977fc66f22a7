import type { PlayerId } from '../rules/types';
import { sha256Hex, utf8Bytes } from './sha256';

/** Create/join option `entropy` (PROTOCOL v2): 16–64 hex characters. */
export const ENTROPY_PATTERN = /^[0-9a-fA-F]{16,64}$/;
/** What `newCommitment` draws: 32 random bytes as lowercase hex. */
export const SERVER_SEED_PATTERN = /^[0-9a-f]{64}$/;
export const COMMITMENT_PATTERN = /^[0-9a-f]{64}$/;
/** Names this derivation; a different one would get a new label, so old records still verify. */
export const DERIVATION_LABEL = 'cockroach-poker/seed/v1';

export function isEntropy(value: unknown): value is string {
  return typeof value === 'string' && ENTROPY_PATTERN.test(value);
}

/** The order ids are compared in everywhere: UTF-16 code units (byte order for the ASCII ids the server issues). */
export function byId(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The players in the order the game is started with (`Match.start(seed, canonicalPlayers(ids), …)`).
 * A fixed order, not join order: the seed's shuffle turns this list into the seats, and a server
 * free to order the list could try its permutations for the deal it likes.
 */
export function canonicalPlayers(ids: readonly PlayerId[]): PlayerId[] {
  return [...ids].sort(byId);
}

/** A netstring ("<byte length>:<text>,"): no separator inside any text can be confused with one between texts. */
function netstring(text: string): string {
  return `${utf8Bytes(text).length}:${text},`;
}

/**
 * The game's seed: lowercase hex SHA-256 of the label, the server seed, then every player's id
 * and entropy ("" for none) sorted by id, each as a netstring. docs/fairness.md spells it out.
 */
export function deriveSeed(serverSeed: string, entropy: Readonly<Record<PlayerId, string>>): string {
  let message = netstring(DERIVATION_LABEL) + netstring(serverSeed);
  for (const id of Object.keys(entropy).sort(byId)) message += netstring(id) + netstring(entropy[id]);
  return sha256Hex(message);
}
