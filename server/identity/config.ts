import { createPublicKey, KeyObject } from 'node:crypto';
import path from 'node:path';

/**
 * Who may play (PROTOCOL v3 "Who is playing"), read from the environment:
 * - app mode: `AUTH_JWT_SECRET` (HS256; the HMAC key is the UTF-8 bytes of the value as given) or
 *   `AUTH_JWT_PUBLIC_KEY` (PEM text of an RSA or P-256 public key: RS256 or ES256). Every
 *   matchmaking request needs the app backend's token. `AUTH_JWT_SECRET_PREVIOUS` /
 *   `AUTH_JWT_PUBLIC_KEY_PREVIOUS` hold the key being rotated out (same algorithm).
 * - guest mode (neither set): `POST /api/guest` hands out tokens signed by the server's own key,
 *   kept in DATA_DIR; matchmaking without a token is an anonymous player.
 */
export type JwtAlgorithm = 'HS256' | 'RS256' | 'ES256';

export interface VerifyKey {
  alg: JwtAlgorithm;
  key: KeyObject | Uint8Array;
}

export type IdentityConfig = (
  | { mode: 'app'; keys: VerifyKey[] }
  | {
      mode: 'guest';
      /** The file holding the server's own signing key (created on first start, mode 0600). */
      keyFile: string;
    }
) & {
  /** Logged once at start (a weak key is accepted, and said so). */
  warnings: string[];
};

/** An HMAC key shorter than SHA-256's output can be guessed offline from one token. */
export const MIN_SECRET_BYTES = 32;
export const GUEST_KEY_FILE_NAME = 'guest-token.key';

type Env = Record<string, string | undefined>;

function set(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

function secretKey(name: string, value: string, warnings: string[]): VerifyKey {
  const key = new TextEncoder().encode(value);
  if (key.length < MIN_SECRET_BYTES)
    warnings.push(
      `${name} is ${key.length} bytes: use ${MIN_SECRET_BYTES} or more (a short HS256 key can be guessed offline from one token)`,
    );
  return { alg: 'HS256', key };
}

function publicKey(name: string, pem: string, warnings: string[]): VerifyKey {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    // Never echo the value: it is the operator's key material.
    throw new Error(`${name} must be the PEM text of an RSA or P-256 public key`);
  }
  if (key.asymmetricKeyType === 'rsa') {
    if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) warnings.push(`${name}: an RSA key should have 2048 bits or more`);
    return { alg: 'RS256', key };
  }
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return { alg: 'ES256', key };
  throw new Error(`${name} must be an RSA (RS256) or P-256 (ES256) public key`);
}

/** Throws with a sentence naming the variable (never its value) when a setting is unusable. */
export function identityConfigFromEnv(env: Env = process.env): IdentityConfig {
  const secret = set(env, 'AUTH_JWT_SECRET');
  const pem = set(env, 'AUTH_JWT_PUBLIC_KEY');
  const previousSecret = set(env, 'AUTH_JWT_SECRET_PREVIOUS');
  const previousPem = set(env, 'AUTH_JWT_PUBLIC_KEY_PREVIOUS');
  if (secret !== undefined && pem !== undefined) throw new Error('set AUTH_JWT_SECRET or AUTH_JWT_PUBLIC_KEY, not both');
  const warnings: string[] = [];
  if (secret !== undefined || pem !== undefined) {
    const keys = [secret !== undefined ? secretKey('AUTH_JWT_SECRET', secret, warnings) : publicKey('AUTH_JWT_PUBLIC_KEY', pem!, warnings)];
    if (previousSecret !== undefined) keys.push(secretKey('AUTH_JWT_SECRET_PREVIOUS', previousSecret, warnings));
    if (previousPem !== undefined) keys.push(publicKey('AUTH_JWT_PUBLIC_KEY_PREVIOUS', previousPem, warnings));
    // One algorithm per deployment: a token is verified only with the algorithm configured.
    if (keys.some((k) => k.alg !== keys[0].alg)) throw new Error('the previous key must use the same algorithm as the current one');
    return { mode: 'app', keys, warnings };
  }
  if (previousSecret !== undefined || previousPem !== undefined)
    throw new Error('AUTH_JWT_*_PREVIOUS is only read together with AUTH_JWT_SECRET or AUTH_JWT_PUBLIC_KEY');
  const dataDir = set(env, 'DATA_DIR')?.trim() || './data';
  return { mode: 'guest', keyFile: path.join(dataDir, GUEST_KEY_FILE_NAME), warnings };
}
