import assert from 'node:assert/strict';
import { MAX_WATCHERS, MAX_WATCHERS_PER_ADDRESS } from '../../server/table/admission';
import { NICKNAME_MAX } from '../../server/protocol';
import { distinctNickname } from '../../server/table/names';
import type { Joiner } from '../../server/table/state';
import { tableHarness } from './support';

/**
 * Issue 32 at the table, without sockets: kicks that hold (a kick locks), a host that stays the
 * family's (the creator by identity; a blip hands nothing to anyone), watchers as people at the
 * table, and names nobody shares.
 */
const home = (key: string): Joiner => ({ key: `guest:${key}`, address: '10.0.0.1' });
const stranger = (key: string): Joiner => ({ key: `guest:${key}`, address: '10.0.0.2' });

function family() {
  const t = tableHarness({ lobbyGraceMs: 20_000, reconnectGraceMs: 90_000 });
  const sit = (id: string, who: Joiner, nickname = id) => {
    const step = t.table.seat({ id, nickname, who });
    assert.equal(step.outcome.ok, true, `${id} sits: ${JSON.stringify(step.outcome)}`);
  };
  return { t, sit };
}

const codeOf = (outcome: { ok: boolean; code?: unknown }) =>
  outcome.ok ? null : typeof outcome.code === 'string' ? outcome.code : (outcome.code as { code: string }).code;

describe('table: a family’s table that a stranger cannot take (issue 32)', () => {
  it('a kick locks the table: no new identity, no anonymous player, no other address sits or watches until the creator unlocks', () => {
    const { t, sit } = family();
    sit('kid', home('kid'));
    sit('sis', home('sis'));
    sit('bad', stranger('bad'));
    assert.equal(t.table.kick('kid', 'bad').outcome.ok, true);
    assert.equal(t.table.state.locked, true);
    assert.ok(t.events().some((e) => e.type === 'locked' && e.reason === 'kick' && e.by === 'kid'));
    for (let i = 0; i < 5; i++) {
      assert.equal(t.table.joinRefusal(stranger(`bad-new-${i}`)), 'LOCKED', 'a fresh guest identity');
      assert.equal(t.table.joinRefusal(stranger(`bad-new-${i}`), true), 'LOCKED', 'watching too');
    }
    assert.equal(t.table.joinRefusal({ key: null, address: '10.0.0.3' }), 'LOCKED', 'an anonymous player elsewhere');
    assert.equal(t.table.joinRefusal(stranger('bad')), 'KICKED', 'the kicked identity itself');
    assert.equal(codeOf(t.table.seat({ id: 'x', nickname: 'x', who: stranger('x') }).outcome), 'LOCKED');
    assert.equal(codeOf(t.table.watch({ id: 'y', nickname: null, who: stranger('y') }).outcome), 'LOCKED');
    // Someone at the table when it locked comes back: the sister's phone blips past the lobby grace.
    t.table.drop('sis');
    t.advance(20_000);
    assert.equal(t.table.state.seats.has('sis'), false);
    assert.equal(t.table.joinRefusal(home('sis')), null, 'the sister was at the table');
    sit('sis2', home('sis'));
    // Only the creator unlocks; then newcomers are welcome again, the kicked one still not.
    assert.equal(codeOf(t.table.unlock('sis2').outcome), 'NOT_HOST');
    assert.equal(t.table.unlock('kid').outcome.ok, true);
    assert.ok(t.events().some((e) => e.type === 'unlocked' && e.by === 'kid'));
    assert.equal(t.table.joinRefusal(stranger('grandma')), null);
    assert.equal(t.table.joinRefusal(stranger('bad')), 'KICKED');
  });

  it('the host locks and unlocks at any time, a game included; a second lock or unlock changes nothing', () => {
    const { t, sit } = family();
    sit('kid', home('kid'));
    sit('sis', home('sis'));
    assert.equal(codeOf(t.table.lock('sis').outcome), 'NOT_HOST');
    assert.equal(t.table.lock('kid').outcome.ok, true);
    const events = t.events().length;
    assert.equal(t.table.lock('kid').outcome.ok, true);
    assert.equal(t.events().length, events, 'no second locked event');
    t.table.start('kid');
    assert.equal(t.table.unlock('kid').outcome.ok, true);
    assert.equal(t.table.state.locked, false);
    assert.equal(t.table.lock('kid').outcome.ok, true);
    assert.equal(t.table.state.locked, true);
  });

  it('the creator is host whenever present: a blip past the lobby grace frees nothing and hands nothing to a stranger, and the creator takes the role back', () => {
    const { t, sit } = family();
    sit('kid', home('kid'));
    sit('bad', stranger('bad'));
    sit('sis', home('sis'));
    t.table.drop('kid');
    assert.equal(t.table.state.hostId, 'kid', 'held while the seat is held');
    assert.equal(codeOf(t.table.kick('bad', 'sis').outcome), 'NOT_HOST', 'nobody new may kick meanwhile');
    t.advance(20_000);
    assert.equal(t.table.state.seats.has('kid'), true, 'the creator’s lobby seat outlives the lobby grace');
    assert.equal(t.table.state.hostId, 'kid', 'and so does the role');
    t.advance(70_000);
    assert.equal(t.table.state.seats.get('kid')!.away, true, 'after the game’s grace the creator is away, the seat kept');
    assert.equal(t.table.state.hostId, 'bad', 'a person seated before the host left stands in');
    assert.equal(codeOf(t.table.kick('bad', 'sis').outcome), 'NOT_CREATOR', 'a stand-in never kicks');
    assert.equal(codeOf(t.table.kick('bad', 'kid').outcome), 'NOT_CREATOR', 'nor removes the creator');
    assert.equal(t.table.lock('bad').outcome.ok, true, 'a stand-in may lock');
    assert.equal(codeOf(t.table.unlock('bad').outcome), 'NOT_CREATOR', 'but never open the table to its friends');
    // The creator comes back (a new connection of the same identity takes the held seat): host again, at once.
    assert.equal(t.table.joinRefusal(home('kid')), 'ALREADY_SEATED', 'the creator’s seat is still theirs: they return to it');
    assert.equal(t.table.return('kid').outcome.ok, true);
    assert.equal(t.table.state.hostId, 'kid');
    assert.ok(t.table.state.seats.has('sis'), 'nobody was kicked meanwhile');
    assert.equal(codeOf(t.table.kick('bad', 'kid').outcome), 'NOT_HOST');
  });

  it('only a person seated before the host left may stand in; a newcomer never becomes host', () => {
    const { t, sit } = family();
    sit('kid', home('kid'));
    t.table.drop('kid');
    sit('late', stranger('late'));
    t.advance(90_000);
    assert.equal(t.table.state.seats.get('kid')!.away, true);
    assert.equal(t.table.state.hostId, null, 'nobody may stand in: the lobby waits for its family');
    sit('later', stranger('later'));
    assert.equal(t.table.state.hostId, null);
    assert.equal(codeOf(t.table.start('late').outcome), 'NOT_HOST');
    assert.equal(t.table.return('kid').outcome.ok, true);
    assert.equal(t.table.state.hostId, 'kid');
  });

  it('a stand-in may start while the creator is away: the creator’s seat plays by itself, and the creator takes it back in the game', () => {
    const { t, sit } = family();
    sit('kid', home('kid'));
    sit('sis', home('sis'));
    t.table.drop('kid');
    t.advance(90_000);
    assert.equal(t.table.state.hostId, 'sis');
    assert.equal(t.table.start('sis').outcome.ok, true);
    assert.ok(t.game().order.includes('kid'), 'the creator is dealt in');
    assert.equal(t.table.return('kid').outcome.ok, true);
    assert.equal(t.table.state.lifecycle, 'playing');
    assert.equal(t.table.state.hostId, 'kid', 'the creator is host again, mid-game');
    assert.equal(t.table.state.seats.get('kid')!.away, false);
  });

  it('a creator who never arrives: the first reservation names them, nobody is host until they sit, and a stranger who slips in first is not the creator', () => {
    const { t, sit } = family();
    assert.equal(t.table.expectCreator('kid', 'guest:kid'), true);
    assert.equal(t.table.expectCreator('bad', 'guest:bad'), false, 'only the first reservation names the creator');
    sit('bad', stranger('bad'));
    assert.equal(t.table.state.hostId, null, 'nobody is host while the creator is on their way');
    assert.equal(t.table.isCreator('bad'), false);
    assert.equal(codeOf(t.table.start('bad').outcome), 'NOT_HOST');
    sit('kid', home('kid'));
    assert.equal(t.table.state.hostId, 'kid');
    assert.equal(t.table.isCreator('kid'), true);
  });

  it('at the results screen an away creator hands over to a player of that game, and takes the role back on return', () => {
    const { t, sit } = family();
    sit('kid', home('kid'));
    sit('bad', stranger('bad'));
    t.table.start('kid');
    t.table.drop('kid');
    while (t.table.state.lifecycle === 'playing') t.advance(15_000);
    assert.equal(t.table.state.seats.get('kid')!.away, true);
    assert.equal(t.table.state.hostId, 'bad', 'someone present can ask for a rematch');
    assert.equal(codeOf(t.table.kick('bad', 'kid').outcome), 'NOT_CREATOR', 'and cannot remove the creator');
    assert.equal(t.table.return('kid').outcome.ok, true);
    assert.equal(t.table.state.hostId, 'kid');
  });

  it('the creator leaving the lobby on purpose keeps the role: someone seated before stands in without kick powers, and the creator is host again on return', () => {
    const { t, sit } = family();
    sit('kid', home('kid'));
    sit('sis', home('sis'));
    t.table.leave('kid');
    assert.equal(t.table.state.seats.has('kid'), false, 'leaving the lobby frees the seat');
    assert.equal(t.table.state.hostId, 'sis');
    assert.equal(t.table.isCreator('sis'), false, 'the creator’s role never passes on');
    sit('bad', stranger('bad'));
    assert.equal(codeOf(t.table.kick('sis', 'bad').outcome), 'NOT_CREATOR');
    sit('kid2', home('kid'));
    assert.equal(t.table.state.hostId, 'kid2', 'the creator is host again');
    assert.equal(t.table.isCreator('kid2'), true);
  });

  it('a rematch while the creator is away keeps the creator’s seat', () => {
    const { t, sit } = family();
    sit('kid', home('kid'));
    sit('sis', home('sis'));
    sit('bro', home('bro'));
    t.table.start('kid');
    t.table.leave('kid');
    while (t.table.state.lifecycle === 'playing') t.advance(15_000);
    assert.equal(t.table.rematch('sis').outcome.ok, true);
    assert.equal(t.table.state.seats.get('kid')?.away, true, 'kept, away');
    assert.equal(t.table.return('kid').outcome.ok, true);
    assert.equal(t.table.state.hostId, 'kid');
  });

  it('watchers are people at the table: named, one place per identity, at most half the places per address, removed by kick', () => {
    const { t, sit } = family();
    sit('kid', home('kid'), '엄마');
    assert.equal(t.table.watch({ id: 'w1', nickname: '할머니', who: home('grandma') }).outcome.ok, true);
    assert.equal(t.table.watch({ id: 'w2', nickname: null, who: stranger('a') }).outcome.ok, true);
    assert.equal(t.table.state.watchers.get('w2')!.nickname, '구경꾼 1', 'a watcher without a name gets one');
    // The same identity again: its place, taken over (the room closes the old connection).
    assert.equal(t.table.watch({ id: 'w2b', nickname: null, who: stranger('a') }).outcome.ok, true);
    assert.ok(!t.table.state.watchers.has('w2'));
    assert.ok(t.events().some((e) => e.type === 'stoppedWatching' && e.watcher === 'w2' && e.reason === 'replaced'));
    for (let i = 1; i < MAX_WATCHERS_PER_ADDRESS; i++)
      assert.equal(t.table.watch({ id: `s${i}`, nickname: null, who: stranger(`s${i}`) }).outcome.ok, true);
    assert.equal(codeOf(t.table.watch({ id: 'sx', nickname: null, who: stranger('sx') }).outcome), 'SPECTATORS_FULL');
    for (let i = t.table.state.watchers.size; i < MAX_WATCHERS; i++)
      assert.equal(t.table.watch({ id: `h${i}`, nickname: null, who: { key: `guest:h${i}`, address: `10.1.0.${i}` } }).outcome.ok, true);
    assert.equal(codeOf(t.table.watch({ id: 'hx', nickname: null, who: home('hx') }).outcome), 'SPECTATORS_FULL');
    // The host removes a watcher: barred, the table locks, every place of that identity goes.
    sit('bad', stranger('a'), '나쁜');
    assert.equal(t.table.kick('kid', 'w2b').outcome.ok, true);
    assert.ok(!t.table.state.watchers.has('w2b'));
    assert.ok(!t.table.state.seats.has('bad'), 'its seat went with it');
    assert.ok(t.events().some((e) => e.type === 'stoppedWatching' && e.watcher === 'w2b' && e.reason === 'kicked'));
    assert.equal(t.table.state.locked, true);
    assert.equal(t.table.joinRefusal(stranger('a'), true), 'KICKED');
    // A watcher may be removed during a game; a player may not.
    t.table.addBot('kid', () => ({ id: 'bot', decider: { decide: () => ({ type: 'peek' }), thinkMs: () => 10 } }));
    t.table.start('kid');
    assert.equal(t.table.kick('kid', 'w1').outcome.ok, true);
    assert.equal(t.table.unwatch('s1').outcome.ok, true);
    assert.ok(t.events().some((e) => e.type === 'stoppedWatching' && e.watcher === 's1' && e.reason === 'left'));
  });

  it('a watcher present when the table locked may watch again but never sit down; a refused kick bars nobody', () => {
    const { t, sit } = family();
    sit('kid', home('kid'));
    sit('sis', home('sis'));
    assert.equal(t.table.watch({ id: 'w', nickname: null, who: stranger('w') }).outcome.ok, true);
    assert.equal(t.table.lock('kid').outcome.ok, true);
    assert.equal(t.table.unwatch('w').outcome.ok, true);
    assert.equal(t.table.joinRefusal(stranger('w'), true), null, 'back to watch');
    assert.equal(t.table.joinRefusal(stranger('w')), 'LOCKED', 'not to sit: a watcher placed early cannot take a seat at a locked table');
    t.table.start('kid');
    assert.equal(codeOf(t.table.kick('kid', 'sis').outcome), 'NOT_IN_LOBBY');
    assert.equal(t.table.joinRefusal(home('sis'), true), null, 'the refused kick left no bar behind');
    assert.equal(t.table.isBarred(home('sis')), false);
  });

  it('never shows two people the same name: a number after the newcomer’s, within twelve characters', () => {
    const { t, sit } = family();
    sit('a', home('a'), '엄마');
    sit('b', home('b'), '엄 마');
    sit('c', home('c'), '엄마');
    t.table.watch({ id: 'w', nickname: '엄마', who: home('w') });
    const names = [...t.table.state.seats.values()]
      .map((s) => s.nickname)
      .concat([...t.table.state.watchers.values()].map((w) => w.nickname));
    assert.deepEqual(names, ['엄마', '엄 마 2', '엄마 3', '엄마 4']);
    assert.equal(distinctNickname('가나다라마바사아자차카타', ['가나다라마바사아자차카타'], NICKNAME_MAX), '가나다라마바사아자차 2');
    assert.equal(distinctNickname('Mom', ['mom'], NICKNAME_MAX), 'Mom 2', 'case does not tell names apart');
    assert.equal(distinctNickname('아이', ['엄마'], NICKNAME_MAX), '아이');
    assert.equal(
      distinctNickname('엄마\u0301', ['엄마'], NICKNAME_MAX),
      '엄마\u0301 2',
      'a mark drawn over a letter does not tell names apart',
    );
    assert.equal(distinctNickname('엄·마!', ['엄마'], NICKNAME_MAX), '엄·마! 2', 'nor do symbols');
  });
});
