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
    if (this.guest) return this.guest;
    const kept = (await this.store.loadGuest?.()) ?? null;
    if (kept && isToken(kept)) return (this.guest = kept);
    return this.noGuests ? null : this.fetchGuest();
  }

  /** One request at a time; a failure leaves this request anonymous and the next one tries again. */
  private fetchGuest(): Promise<string | null> {
    this.fetching ??= this.colyseus.http
      .post('api/guest', { headers: { Accept: 'application/json' } })
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
