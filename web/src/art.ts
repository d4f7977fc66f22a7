import { KINDS, KIND_NAMES_KO, Kind } from '../../client-sdk/index';
import { ANIMAL_NAMES } from './words';
import bugs_cockroach from '../art/bugs/cockroach.svg';
import bugs_bat from '../art/bugs/bat.svg';
import bugs_fly from '../art/bugs/fly.svg';
import bugs_toad from '../art/bugs/toad.svg';
import bugs_rat from '../art/bugs/rat.svg';
import bugs_scorpion from '../art/bugs/scorpion.svg';
import bugs_spider from '../art/bugs/spider.svg';
import bugs_stinkbug from '../art/bugs/stinkbug.svg';
import animals_cockroach from '../art/animals/cockroach.svg';
import animals_bat from '../art/animals/bat.svg';
import animals_fly from '../art/animals/fly.svg';
import animals_toad from '../art/animals/toad.svg';
import animals_rat from '../art/animals/rat.svg';
import animals_scorpion from '../art/animals/scorpion.svg';
import animals_spider from '../art/animals/spider.svg';
import animals_stinkbug from '../art/animals/stinkbug.svg';

export type SkinName = 'bugs' | 'animals';

export interface Skin {
  name: SkinName;
  label: string;
  /** The game's name in this skin (header, tab title) and its emoji. */
  title: string;
  logo: string;
  /** The tab's icon, one of this skin's pictures (served under /play/art/). */
  icon: string;
  /** What the skin calls its eight kinds together ("벌레 8종", "동물 8종"). */
  group: string;
  /** Display name per kind key; the keys stay the server's kinds. */
  names: Readonly<Record<Kind, string>>;
  svg: Record<Kind, string>;
}

/**
 * Two skins over the same eight kind keys: the critters of the rules, and animals for children
 * who dislike bugs (rules section 12). Only the picture and the word change, never the key.
 */
export const SKINS: Record<SkinName, Skin> = {
  bugs: {
    name: 'bugs',
    label: '벌레',
    title: '벌레 블러핑',
    logo: '🐞',
    icon: 'art/bugs/rat.svg',
    group: '벌레',
    names: { ...KIND_NAMES_KO },
    svg: {
      cockroach: bugs_cockroach,
      bat: bugs_bat,
      fly: bugs_fly,
      toad: bugs_toad,
      rat: bugs_rat,
      scorpion: bugs_scorpion,
      spider: bugs_spider,
      stinkbug: bugs_stinkbug,
    },
  },
  animals: {
    name: 'animals',
    label: '동물',
    title: '동물 블러핑',
    logo: '🐶',
    icon: 'art/animals/cockroach.svg',
    group: '동물',
    names: ANIMAL_NAMES,
    svg: {
      cockroach: animals_cockroach,
      bat: animals_bat,
      fly: animals_fly,
      toad: animals_toad,
      rat: animals_rat,
      scorpion: animals_scorpion,
      spider: animals_spider,
      stinkbug: animals_stinkbug,
    },
  },
};

export { KINDS };
export type { Kind };
