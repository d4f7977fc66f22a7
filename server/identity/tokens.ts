import { randomBytes } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, jwtVerify, SignJWT, JWTPayload } from 'jose';
import { parseNickname } from './nickname';
import type { AppClaims, IdentityConfig, VerifyKey } from './config';
import { loadOrCreateGuestKey } from './guestKey';
import { GuestKeyring } from './keyring';
import { GuestRevocations, isGuestSub } from './revocations';
import type { Identity } from './types';

/**
 * A guest token lasts 30 days (issue 32): the SDK renews it silently in its last 7 (`POST
 * /api/guest/renew`, the same identity), so a phone in use keeps its identity, and a token copied
 * off a phone stops working within a month. Older tokens (a year's life) are held to 30 days
 * from their `iat` too.
 */
export const GUEST_TOKEN_DAYS = 30;
const GUEST_TOKEN_SECONDS = GUEST_TOKEN_DAYS * 86_400;
/** A revocation outlives every token it refuses: the token lifetime, and a day for clocks. */
export const REVOCATION_KEEP_MS = (GUEST_TOKEN_DAYS + 1) * 86_400_000;
/** Guest tokens name their issuer, so a token of another kind signed by chance with the same key is not one. */
export const GUEST_ISSUER = 'cockroach-poker/guest';
/** Longest `sub`, in code points (PROTOCOL v3). */
export const MAX_SUB = 64;
/** A JWT is three base64url parts; anything longer than this is not one we issue or expect. */
const MAX_TOKEN_LENGTH = 4096;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const CONTROL = /[\p{Cc}\p{Cf}\p{Cs}]/u;
/** Clocks of the app backend and of this server may differ a little. */
const CLOCK_TOLERANCE_SECONDS = 30;

export type AuthRefusal = 'AUTH_REQUIRED' | 'AUTH_INVALID';
export type Verdict = { ok: true; identity: Identity } | { ok: false; code: AuthRefusal };
export type Renewal = { ok: true; token: string } | { ok: false; code: AuthRefusal };

/**
 * Verifies the bearer token of a matchmaking request and says who is playing. Tokens are only
 * ever read here: never echoed, logged, stored or handed on (the identity carries the `sub` as
 * part of its key, server-side only).
 */
export class Identities {
  private constructor(
    readonly mode: 'app' | 'guest',
    private readonly appKeys: readonly VerifyKey[],
    private readonly appClaims: AppClaims | null,
    /** Guest mode: the keys guest tokens are signed and verified with (with REDIS_URL, the fleet's: ./guestFleet.ts). */
    readonly keyring: GuestKeyring | null,
    /** Guest mode: identities an operator revoked. */
    readonly revocations: GuestRevocations | null,
    /** Guest mode: this process's own key (DATA_DIR), and whether this start created it (no token of it exists yet). */
    readonly fileKey: { key: Uint8Array; created: boolean } | null,
  ) {}

  /** Reads or creates the guest key in guest mode; `warn` receives what an operator should fix. */
  static start(config: IdentityConfig, warn: (message: string) => void = () => undefined): Identities {
    for (const warning of config.warnings) warn(warning);
    if (config.mode === 'app') {
      const { issuer, audience, maxAgeSeconds } = config;
      return new Identities('app', config.keys, { issuer, audience, maxAgeSeconds }, null, null, null);
    }
    const { key, created, warning } = loadOrCreateGuestKey(config.keyFile);
    if (warning) warn(warning);
    const revocations = new GuestRevocations(config.revokedFile, REVOCATION_KEEP_MS);
    return new Identities('guest', [], null, new GuestKeyring(key), revocations, { key, created });
  }

  /**
   * The request's identity from its `Authorization` header. No header: AUTH_REQUIRED in app mode,
   * an anonymous player in guest mode. A header that is not one valid token (a revoked guest's
   * included): AUTH_INVALID.
   */
  async identify(authorization: unknown, address: string): Promise<Verdict> {
    if (authorization === undefined || authorization === '') {
      return this.mode === 'app' ? { ok: false, code: 'AUTH_REQUIRED' } : { ok: true, identity: { key: null, kind: 'anonymous', address } };
    }
    const token = bearer(authorization);
    if (token === null) return { ok: false, code: 'AUTH_INVALID' };
    const claims = await this.verify(token);
    if (!claims) return { ok: false, code: 'AUTH_INVALID' };
    const sub = claims.sub;
    if (typeof sub !== 'string' || [...sub].length < 1 || [...sub].length > MAX_SUB || CONTROL.test(sub))
      return { ok: false, code: 'AUTH_INVALID' };
    if (this.revocations?.has(sub)) return { ok: false, code: 'AUTH_INVALID' };
    const identity: Identity =
      this.mode === 'app' ? { key: `app:${sub}`, kind: 'app', address } : { key: `guest:${sub}`, kind: 'guest', address };
    if (claims.nickname !== undefined) {
      const nickname = parseNickname(claims.nickname);
      if (nickname === null) return { ok: false, code: 'AUTH_INVALID' };
      identity.nickname = nickname;
    }
    return { ok: true, identity };
  }

  /** A fresh guest token (guest mode only): a random `sub`, this server's key, GUEST_TOKEN_DAYS of life. */
  issueGuest(): Promise<string> {
    return this.signGuest(randomBytes(16).toString('base64url'));
  }

  /**
   * The same guest identity with a fresh GUEST_TOKEN_DAYS (`POST /api/guest/renew`): only for a
   * guest token this server accepts now (not expired, not revoked).
   */
  async renewGuest(authorization: unknown): Promise<Renewal> {
    if (this.mode !== 'guest') throw new Error('guest tokens are only renewed in guest mode');
    const verdict = await this.identify(authorization, '');
    if (!verdict.ok) return verdict;
    if (verdict.identity.kind !== 'guest') return { ok: false, code: 'AUTH_REQUIRED' };
    return { ok: true, token: await this.signGuest(verdict.identity.key!.slice('guest:'.length)) };
  }

  /**
   * The `sub` of a guest token signed by one of this server's guest keys, expired or not (an
   * operator revoking the identity of a token someone handed in); null when it is not one.
   */
  async guestSubOf(token: string): Promise<string | null> {
    if (!this.keyring || !TOKEN_SHAPE.test(token) || token.length > MAX_TOKEN_LENGTH) return null;
    for (const key of this.keyring.candidates(kidOf(token))) {
      try {
        const { payload } = await compactVerify(token, key, { algorithms: ['HS256'] });
        const claims = JSON.parse(new TextDecoder().decode(payload)) as JWTPayload;
        return claims.iss === GUEST_ISSUER && isGuestSub(claims.sub) ? claims.sub : null;
      } catch {
        // another key, or not one of ours
      }
    }
    return null;
  }

  private signGuest(sub: string): Promise<string> {
    if (!this.keyring) throw new Error('guest tokens are only issued in guest mode');
    const { key, kid } = this.keyring.signing;
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid })
      .setSubject(sub)
      .setIssuer(GUEST_ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${GUEST_TOKEN_DAYS}d`)
      .sign(key);
  }

  /** The payload when one configured key verifies the token with its pinned algorithm and every claim holds. */
  private async verify(token: string): Promise<JWTPayload | null> {
    if (this.keyring) {
      for (const key of this.keyring.candidates(kidOf(token))) {
        // Guest tokens are ours: signed with `iat`; none is accepted past GUEST_TOKEN_DAYS from it, whatever its `exp`.
        const payload = await verified(token, key, {
          algorithms: ['HS256'],
          requiredClaims: ['exp', 'sub', 'iat'],
          issuer: GUEST_ISSUER,
          maxTokenAge: GUEST_TOKEN_SECONDS,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
        });
        if (payload) return payload;
      }
      return null;
    }
    const claims = this.appClaims!;
    for (const { alg, key } of this.appKeys) {
      const payload = await verified(token, key, {
        algorithms: [alg], // alg "none" and every other algorithm are refused before any key is used
        requiredClaims: ['exp', 'sub', 'iat'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        // `iat` no older than the cap and not in the future, and (below) no life longer than the cap.
        maxTokenAge: claims.maxAgeSeconds,
        ...(claims.issuer !== null ? { issuer: claims.issuer } : {}),
        ...(claims.audience !== null ? { audience: claims.audience } : {}),
      });
      if (payload && (payload.exp as number) - (payload.iat as number) <= claims.maxAgeSeconds) return payload;
    }
    return null;
  }
}

async function verified(token: string, key: VerifyKey['key'], options: Parameters<typeof jwtVerify>[2]): Promise<JWTPayload | null> {
  try {
    return (await jwtVerify(token, key, options)).payload;
  } catch {
    return null; // the next key (one being rotated out), or refused
  }
}

/** The `kid` a token's header names, if it can be read at all. */
function kidOf(token: string): unknown {
  try {
    return decodeProtectedHeader(token).kid;
  } catch {
    return undefined;
  }
}

/** The token of `Authorization: Bearer <token>` when it has a JWT's shape, else null. */
function bearer(header: unknown): string | null {
  if (typeof header !== 'string' || header.length > MAX_TOKEN_LENGTH + 7) return null;
  const match = /^Bearer +(\S+)$/i.exec(header);
  if (!match || !TOKEN_SHAPE.test(match[1])) return null;
  return match[1];
}
