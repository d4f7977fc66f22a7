import { Router } from 'express';
import { log } from '../base/log';
import { isGameId } from '../store/gameId';
import type { RecordSource } from '../store/types';

/** Stable codes and short Korean sentences, like the room's errors. */
export const GAMES_HTTP_ERRORS = {
  GAME_NOT_FOUND: '그 게임 기록을 찾을 수 없어요.',
  RECORDS_UNAVAILABLE: '지금은 게임 기록을 볼 수 없어요. 잠시 뒤에 다시 해 봐요.',
} as const;

/**
 * GET /api/games/:gameId — a finished game's record (PROTOCOL v2). The id's shape is checked
 * before any lookup; an id of the wrong shape is as unknown as any other. Pass the RecordWriter,
 * so a game that just ended is served while its write is still queued.
 */
export function gamesRouter(source: RecordSource): Router {
  const router = Router();
  router.get('/api/games/:gameId', (req, res) => {
    const { gameId } = req.params;
    const refuse = (status: number, code: keyof typeof GAMES_HTTP_ERRORS) =>
      res.status(status).set('Cache-Control', 'no-store').json({ code, message: GAMES_HTTP_ERRORS[code] });
    if (!isGameId(gameId)) return void refuse(404, 'GAME_NOT_FOUND');
    source.get(gameId).then(
      (record) => {
        if (!record) return void refuse(404, 'GAME_NOT_FOUND');
        // A record never changes once written (its id is its hash).
        res.set('Cache-Control', 'public, max-age=3600').json(record);
      },
      (error) => {
        log.error('records.read_failed', { gameId }, error);
        refuse(503, 'RECORDS_UNAVAILABLE');
      },
    );
  });
  return router;
}
