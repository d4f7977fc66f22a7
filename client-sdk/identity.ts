import type { Client } from 'colyseus.js';
import { matchmakeCode, SdkErrorCode } from './errors';
import type { TokenStore } from './tokenStore';

/**
 * The app's own identity (PROTOCOL v3 "Who is playing", app mode): its backend's JWT, or a
 * function that returns a fresh one. The function is called before every matchmaking request
 * (reconnections included): return a cached token while it is still valid.
 */
export type AppToken = string | (() => string | Promise<string>);

/** What a guest token may look like: a JWT, kept small (anything else from the server is ignored). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const MAX_TOKEN_CHARS = 4096;
/** A guest token lives 30 days (the server's GUEST_TOKEN_DAYS); in its last 7 it is renewed when used. */
const GUEST_LIFE_SECONDS = 30 * 86_400;
const RENEW_WITHIN_SECONDS = 7 * 86_400;
/** What the guest routes are sent: JSON, as the server requires (415 otherwise), and no options. */
const GUEST_REQUEST = { 'Content-Type': 'application/json', Accept: 'application/json' };

/**
 * Puts the player's identity on every matchmaking request (`client.auth.token` in colyseus.js
 * 0.15 sends it as `Authorization: Bearer …`). App mode: the app's token. Guest mode (the default):
 * a guest identity fetched once from the server (`POST /api/guest`) and kept in the token store,
 * so the same phone is the same player across restarts. `anonymous`: no identity at all.
 */
export class IdentityKeeper {
  private guest: string | null = null;
  private fetching: Promise<string | null> | null = null;
  /** The server has no guest identities (404: an older server): not asked again by this client. */
  private noGuests = false;
  private renewing: Promise<string | null> | null = null;
  /** The server cannot renew (404: an older server): the token is used until it expires. */
  private noRenewals = false;

  constructor(
    private readonly colyseus: Client,
    private readonly mode: { appToken?: AppToken; guest: boolean },
    private readonly store: TokenStore,
  ) {}

  /** Before a matchmaking request: the current token on the client (none for an anonymous player). */
  async apply(): Promise<void> {
    this.colyseus.auth.token = (await this.current()) ?? undefined!;
  }

  /**
   * The server refused the identity (AUTH_INVALID, AUTH_REQUIRED). A guest token it no longer
   * accepts (its key was replaced) is exchanged for a new one; an app token function is asked
   * again. Resolves true when the next request carries a different token.
   */
  async renew(code: SdkErrorCode): Promise<boolean> {
    if (this.mode.appToken !== undefined) {
      if (typeof this.mode.appToken === 'string') return false;
      const before = this.colyseus.auth.token;
      await this.apply();
      return this.colyseus.auth.token !== before;
    }
    // A server without guest identities (404) has none to exchange: the refusal stands.
    if (!this.mode.guest || this.noGuests || (code !== 'AUTH_INVALID' && code !== 'AUTH_REQUIRED')) return false;
    const before = this.guest;
    this.guest = null;
    const fresh = await this.fetchGuest();
    this.colyseus.auth.token = fresh ?? undefined!;
    return fresh !== null && fresh !== before;
  }

  private async current(): Promise<string | null> {
    const app = this.mode.appToken;
    if (app !== undefined) return typeof app === 'string' ? app : await app();
    if (!this.mode.guest) return null;
    if (this.guest) return this.inDate(this.guest);
    const kept = (await this.store.loadGuest?.()) ?? null;
    if (kept && isToken(kept)) return this.inDate((this.guest = kept));
    return this.noGuests ? null : this.fetchGuest();
  }

  /**
   * The guest token to send: as it is while it has more than 7 days left; renewed (the same
   * identity, a fresh 30 days) in its last 7; a new identity once it has expired. The dates are
   * read from the token without checking it (the server does that).
   */
  private inDate(token: string): Promise<string | null> | string | null {
    const ends = guestTokenEnds(token);
    if (ends === null) return token;
    const left = ends - Date.now() / 1000;
    if (left <= 0) {
      this.guest = null;
      return this.noGuests ? null : this.fetchGuest();
    }
    return left > RENEW_WITHIN_SECONDS || this.noRenewals ? token : this.renewGuest(token);
  }

  /**
   * One renewal at a time. Refused (the identity was revoked, or the token no longer passes): a
   * new identity. The server cannot now (a limit, the network): the old token, still valid, and
   * the next request tries again.
   */
  private renewGuest(token: string): Promise<string | null> {
    // colyseus.js puts its own auth token over any Authorization header given: make it this one.
    if (!this.renewing) this.colyseus.auth.token = token;
    this.renewing ??= this.colyseus.http
      .post('api/guest/renew', { headers: { ...GUEST_REQUEST, Authorization: `Bearer ${token}` }, body: '{}' })
      .then(async (response: { data?: unknown }) => {
        const renewed = (response.data as { token?: unknown } | null)?.token;
        if (!isToken(renewed)) return token;
        this.guest = renewed;
        await this.store.saveGuest?.(renewed);
        return renewed;
      })
      .catch((error: unknown) => {
        const status = matchmakeCode(error);
        if (status === 404) this.noRenewals = true;
        if (status !== 401) return token;
        this.guest = null;
        return this.noGuests ? null : this.fetchGuest();
      })
      .finally(() => (this.renewing = null));
    return this.renewing;
  }

  /** One request at a time; a failure leaves this request anonymous and the next one tries again. */
  private fetchGuest(): Promise<string | null> {
    this.fetching ??= this.colyseus.http
      .post('api/guest', { headers: GUEST_REQUEST, body: '{}' })
      .then(async (response: { data?: unknown }) => {
        const token = (response.data as { token?: unknown } | null)?.token;
        if (!isToken(token)) return null;
        this.guest = token;
        await this.store.saveGuest?.(token);
        return token;
      })
      .catch((error: unknown) => {
        if (matchmakeCode(error) === 404) this.noGuests = true;
        return null;
      })
      .finally(() => (this.fetching = null));
    return this.fetching;
  }
}

function isToken(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_TOKEN_CHARS && TOKEN_SHAPE.test(value);
}

/**
 * When a guest token stops being accepted, in seconds since 1970: its `exp`, or 30 days after its
 * `iat` if that comes first (a token from before guest tokens lasted 30 days). Null when the token
 * says neither. Decoded by hand: React Native has neither Buffer nor, before 0.74, atob.
 */
export function guestTokenEnds(token: string): number | null {
  const payload = token.split('.')[1];
  let claims: { exp?: unknown; iat?: unknown } | null;
  try {
    claims = JSON.parse(base64UrlText(payload ?? '')) as { exp?: unknown; iat?: unknown } | null;
  } catch {
    return null;
  }
  const exp = typeof claims?.exp === 'number' ? claims.exp : null;
  const iat = typeof claims?.iat === 'number' ? claims.iat : null;
  if (exp === null) return null;
  return iat === null ? exp : Math.min(exp, iat + GUEST_LIFE_SECONDS);
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url → text, each byte one character (a JWT payload's numbers and ASCII names read right). */
function base64UrlText(part: string): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const char of part) {
    const digit = BASE64URL.indexOf(char);
    if (digit < 0) throw new Error('not base64url');
    value = ((value << 6) | digit) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((value >> bits) & 0xff);
    }
  }
  return out;
}
