import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT, JWTPayload } from 'jose';
import { parseNickname } from '../room/joinOptions';
import type { IdentityConfig, VerifyKey } from './config';
import { loadOrCreateGuestKey } from './guestKey';
import type { Identity } from './types';

/** A guest token lasts a year: the SDK keeps it with the reconnection token, and asks again only after a reinstall or a year. */
export const GUEST_TOKEN_DAYS = 365;
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

/**
 * Verifies the bearer token of a matchmaking request and says who is playing. Tokens are only
 * ever read here: never echoed, logged, stored or handed on (the identity carries the `sub` as
 * part of its key, server-side only).
 */
export class Identities {
  private constructor(
    readonly mode: 'app' | 'guest',
    private readonly keys: readonly VerifyKey[],
    private readonly guestKey: Uint8Array | null,
  ) {}

  /** Reads or creates the guest key in guest mode; `warn` receives what an operator should fix. */
  static start(config: IdentityConfig, warn: (message: string) => void = () => undefined): Identities {
    for (const warning of config.warnings) warn(warning);
    if (config.mode === 'app') return new Identities('app', config.keys, null);
    const { key, warning } = loadOrCreateGuestKey(config.keyFile);
    if (warning) warn(warning);
    return new Identities('guest', [{ alg: 'HS256', key }], key);
  }

  /**
   * The request's identity from its `Authorization` header. No header: AUTH_REQUIRED in app mode,
   * an anonymous player in guest mode. A header that is not one valid token: AUTH_INVALID.
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
    const identity: Identity =
      this.mode === 'app' ? { key: `app:${sub}`, kind: 'app', address } : { key: `guest:${sub}`, kind: 'guest', address };
    if (claims.nickname !== undefined) {
      const nickname = parseNickname(claims.nickname);
      if (nickname === null) return { ok: false, code: 'AUTH_INVALID' };
      identity.nickname = nickname;
    }
    return { ok: true, identity };
  }

  /** A fresh guest token (guest mode only): a random `sub`, this server's key, a year's life. */
  async issueGuest(): Promise<string> {
    if (!this.guestKey) throw new Error('guest tokens are only issued in guest mode');
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(randomBytes(16).toString('base64url'))
      .setIssuer(GUEST_ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${GUEST_TOKEN_DAYS}d`)
      .sign(this.guestKey);
  }

  /** The payload when one configured key verifies the token with its pinned algorithm, `exp` and `sub` present. */
  private async verify(token: string): Promise<JWTPayload | null> {
    for (const { alg, key } of this.keys) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [alg], // alg "none" and every other algorithm are refused before any key is used
          requiredClaims: ['exp', 'sub'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          ...(this.mode === 'guest' ? { issuer: GUEST_ISSUER } : {}),
        });
        return payload;
      } catch {
        // the next key (one being rotated out), or refused
      }
    }
    return null;
  }
}

/** The token of `Authorization: Bearer <token>` when it has a JWT's shape, else null. */
function bearer(header: unknown): string | null {
  if (typeof header !== 'string' || header.length > MAX_TOKEN_LENGTH + 7) return null;
  const match = /^Bearer +(\S+)$/i.exec(header);
  if (!match || !TOKEN_SHAPE.test(match[1])) return null;
  return match[1];
}
