import { createPublicKey, KeyObject } from 'node:crypto';
import path from 'node:path';

/**
 * Who may play (PROTOCOL v3 "Who is playing"), read from the environment:
 * - app mode: `AUTH_JWT_SECRET` (HS256; the HMAC key is the UTF-8 bytes of the value as given) or
 *   `AUTH_JWT_PUBLIC_KEY` (PEM text of an RSA or P-256 public key: RS256 or ES256). Every
 *   matchmaking request needs the app backend's token. `AUTH_JWT_SECRET_PREVIOUS` /
 *   `AUTH_JWT_PUBLIC_KEY_PREVIOUS` hold the key being rotated out (same algorithm).
 *   `AUTH_JWT_ISSUER` / `AUTH_JWT_AUDIENCE` are checked when set (strongly recommended: warned
 *   at start when not), and `AUTH_JWT_MAX_AGE_SECONDS` caps a token's life (issue 32).
 * - guest mode (neither set): `POST /api/guest` hands out tokens signed by the server's own key,
 *   kept in DATA_DIR; matchmaking without a token is an anonymous player.
 */
export type JwtAlgorithm = 'HS256' | 'RS256' | 'ES256';

export interface VerifyKey {
  alg: JwtAlgorithm;
  key: KeyObject | Uint8Array;
}

/** What an app token must say besides its signature (issue 32): checked when set. */
export interface AppClaims {
  /** `iss` the app backend writes (AUTH_JWT_ISSUER); null: not checked (warned at start). */
  issuer: string | null;
  /** `aud` naming this game (AUTH_JWT_AUDIENCE); null: not checked (warned at start). */
  audience: string | null;
  /** Longest life a token may claim, `exp - iat`, and the oldest `iat` accepted (AUTH_JWT_MAX_AGE_SECONDS). */
  maxAgeSeconds: number;
}

export type IdentityConfig = (
  | ({ mode: 'app'; keys: VerifyKey[] } & AppClaims)
  | {
      mode: 'guest';
      /** The file holding the server's own signing key (created on first start, mode 0600). */
      keyFile: string;
      /** Guest identities revoked by an operator, kept until their tokens are all expired (server/identity/revocations.ts). */
      revokedFile: string;
      /** With REDIS_URL: the fleet's guest keys as last seen, so a restart with Redis empty still knows them (server/identity/guestFleet.ts). */
      fleetFile: string;
    }
) & {
  /** Logged once at start (a weak key is accepted, and said so). */
  warnings: string[];
};

/** An HMAC key shorter than SHA-256's output can be guessed offline from one token. */
export const MIN_SECRET_BYTES = 32;
export const GUEST_KEY_FILE_NAME = 'guest-token.key';
export const REVOKED_GUESTS_FILE_NAME = 'revoked-guests.json';
export const GUEST_FLEET_FILE_NAME = 'guest-token.fleet.json';
/** AUTH_JWT_MAX_AGE_SECONDS: a day unless set; an hour is what docs/operations.md recommends to sign. */
export const DEFAULT_MAX_AGE_SECONDS = 86_400;
const MAX_AGE_RANGE = [60, 30 * 86_400] as const;
/** Longest AUTH_JWT_ISSUER / AUTH_JWT_AUDIENCE accepted. */
const MAX_CLAIM_TEXT = 256;
const CONTROL = /[\p{Cc}\p{Cf}]/u;

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

/** AUTH_JWT_ISSUER / AUTH_JWT_AUDIENCE: one exact value, compared as written (no trimming inside). */
function claimText(env: Env, name: string): string | null {
  const raw = set(env, name);
  if (raw === undefined) return null;
  const text = raw.trim();
  if (text === '' || text.length > MAX_CLAIM_TEXT || CONTROL.test(text))
    throw new Error(`${name} must be one value of 1 to ${MAX_CLAIM_TEXT} printable characters (what the app backend writes in the token)`);
  return text;
}

function appClaims(env: Env, warnings: string[]): AppClaims {
  const issuer = claimText(env, 'AUTH_JWT_ISSUER');
  const audience = claimText(env, 'AUTH_JWT_AUDIENCE');
  if (issuer === null)
    warnings.push('AUTH_JWT_ISSUER is not set: strongly recommended, so a token the same key signed for another purpose is refused');
  if (audience === null)
    warnings.push('AUTH_JWT_AUDIENCE is not set: strongly recommended, so a token the app backend signed for another service is refused');
  const raw = set(env, 'AUTH_JWT_MAX_AGE_SECONDS')?.trim();
  const maxAgeSeconds = raw === undefined ? DEFAULT_MAX_AGE_SECONDS : Number(raw);
  if (raw !== undefined && (!/^\d+$/.test(raw) || maxAgeSeconds < MAX_AGE_RANGE[0] || maxAgeSeconds > MAX_AGE_RANGE[1]))
    throw new Error(`AUTH_JWT_MAX_AGE_SECONDS must be an integer from ${MAX_AGE_RANGE[0]} to ${MAX_AGE_RANGE[1]}, got "${raw}"`);
  return { issuer, audience, maxAgeSeconds };
}

const APP_ONLY = [
  'AUTH_JWT_SECRET_PREVIOUS',
  'AUTH_JWT_PUBLIC_KEY_PREVIOUS',
  'AUTH_JWT_ISSUER',
  'AUTH_JWT_AUDIENCE',
  'AUTH_JWT_MAX_AGE_SECONDS',
];

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
    return { mode: 'app', keys, ...appClaims(env, warnings), warnings };
  }
  const stray = APP_ONLY.find((name) => set(env, name) !== undefined);
  if (stray !== undefined) throw new Error(`${stray} is only read together with AUTH_JWT_SECRET or AUTH_JWT_PUBLIC_KEY`);
  const dataDir = set(env, 'DATA_DIR')?.trim() || './data';
  return {
    mode: 'guest',
    keyFile: path.join(dataDir, GUEST_KEY_FILE_NAME),
    revokedFile: path.join(dataDir, REVOKED_GUESTS_FILE_NAME),
    fleetFile: path.join(dataDir, GUEST_FLEET_FILE_NAME),
    warnings,
  };
}
