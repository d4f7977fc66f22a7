import assert from 'node:assert/strict';
import { LobbyLedger } from '../../server/http/lobbies';

/**
 * Issue 21: a lobby placed on another process (Redis mode) counted against its creator for
 * IDLE_LOBBY_SECONDS whatever became of it (one address doing create → bot → start → leave was
 * refused TOO_MANY_LOBBIES at its fifth game with no lobby open). Now the shared listing is asked.
 */
describe('http: the lobby ledger asks the listing about lobbies on other processes', () => {
  it('counts a remote lobby while the listing shows it in the lobby, not once it started or closed', async () => {
    let now = 0;
    const listing = new Map<string, { metadata?: unknown }>();
    let lookups = 0;
    const ledger = new LobbyLedger(
      3,
      () => now,
      async (roomId) => (lookups++, listing.get(roomId)),
    );
    for (const id of ['111111', '222222', '333333']) {
      listing.set(id, { metadata: { phase: 'lobby' } });
      ledger.opened('198.51.100.1', { roomId: id, processId: 'another-process' });
    }
    assert.equal(await ledger.mayOpen('198.51.100.1'), false, 'three lobbies open elsewhere');
    assert.equal(lookups, 0, 'just opened: not looked up yet');
    // The games start, one room closes; the ledger sees it at its next look (at most every 10 s).
    listing.set('111111', { metadata: { phase: 'playing' } });
    listing.delete('222222');
    now += 10_000;
    assert.equal(await ledger.open('198.51.100.1'), 1);
    assert.equal(await ledger.mayOpen('198.51.100.1'), true);
    // Five games in a row from one address: never refused with no lobby open.
    for (let game = 0; game < 5; game++) {
      const id = `44444${game}`;
      listing.set(id, { metadata: { phase: 'lobby' } });
      assert.equal(await ledger.mayOpen('203.0.113.7'), true, `game ${game + 1}`);
      ledger.opened('203.0.113.7', { roomId: id, processId: 'another-process' });
      listing.set(id, { metadata: { phase: 'playing' } });
      now += 10_000;
    }
    assert.equal(await ledger.open('203.0.113.7'), 0);
  });

  it('keeps counting a remote lobby while the listing cannot be read', async () => {
    let now = 0;
    const ledger = new LobbyLedger(
      1,
      () => now,
      async () => {
        throw new Error('Connection is closed.');
      },
    );
    ledger.opened('198.51.100.9', { roomId: '555555', processId: 'another-process' });
    now += 60_000;
    assert.equal(await ledger.mayOpen('198.51.100.9'), false);
  });
});
