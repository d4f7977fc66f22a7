import { randomBytes } from 'node:crypto';
import { sha256Hex } from './sha256';

/**
 * A fresh secret for one game and the commitment published before any entropy is used. The
 * secret stays on the server until the game ends (PROTOCOL v2 "Fair play you can check").
 */
export function newCommitment(): { serverSeed: string; commitment: string } {
  const serverSeed = randomBytes(32).toString('hex');
  return { serverSeed, commitment: sha256Hex(serverSeed) };
}
