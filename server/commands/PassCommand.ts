import { parsePass } from './payloads';
import { PlayCommand } from './PlayCommand';

/** After peeking, the holder hands the card to someone who has not seen it, with a new claim. */
export class PassCommand extends PlayCommand {
  readonly action = 'pass';
  protected parse = parsePass;
}
