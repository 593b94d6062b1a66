// The package imported as an ES module in Node (named and default exports).
import { Maharajah, Engine, MaharajahWorker } from 'maharajah-engine';
import MaharajahDefault from 'maharajah-engine';
import game from './game.js';
if (MaharajahDefault !== Maharajah || typeof Engine !== 'function' || typeof MaharajahWorker !== 'function')
  throw new Error('esm: exports');
await game.playShortGame(Maharajah, 'esm');
