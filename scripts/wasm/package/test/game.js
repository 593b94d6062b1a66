// A short engine-versus-engine game through the package's interface, shared by the ESM
// and CommonJS tests: every move checked against legalMoves, the status at the end.
'use strict';
async function playShortGame(Maharajah, label) {
  const t0 = Date.now();
  const lib = await Maharajah.load();
  const lines = [];
  let waiting = null;
  const engine = lib.createEngine((line) => {
    lines.push(line);
    if (waiting && line.startsWith(waiting.prefix)) waiting.resolve(line), waiting = null;
  });
  const next = (prefix) => new Promise((resolve) => { waiting = { prefix, resolve }; });
  const uciok = next('uciok');
  engine.send('uci');
  await uciok;
  const loadMs = Date.now() - t0;
  const fail = (what) => { throw new Error(`${label}: ${what}`); };
  const white = lib.armySuggest('white', 5).text, black = lib.armySuggest('black', 6n).text;
  if (!lib.armyCheck('white', white).ok || !lib.armyCheck('black', black).ok) fail(`army check of ${white} ${black}`);
  const moves = [];
  for (let ply = 0; ply < 8; ++ply) {
    const position = `army ${white} ${black}` + (moves.length ? ' moves ' + moves.join(' ') : '');
    if (lib.status(position).text !== 'ongoing') break;
    const legal = lib.legalMoves(position).text.split(' ');
    await engine.send('position ' + position);
    const best = next('bestmove');
    await engine.send('go depth 6');
    const parsed = Maharajah.parseLine(await best);
    if (parsed.type !== 'bestmove' || !legal.includes(parsed.move)) fail(`illegal bestmove ${parsed.move} in ${position}`);
    moves.push(parsed.move);
  }
  if (moves.length !== 8) fail(`the game stopped after ${moves.length} plies`);
  const infos = lines.filter((l) => l.startsWith('info depth')).map(Maharajah.parseLine);
  if (!infos.length || !infos.every((i) => i.depth > 0 && i.score && i.pv.length)) fail('info lines do not parse');
  const fen = lib.fen(`army ${white} ${black} moves ${moves.join(' ')}`);
  if (!fen.ok) fail('fen after the game: ' + fen.text);
  await engine.destroy();
  console.log(`${label}: 8 plies played and checked (${moves.join(' ')}); load to uciok ${loadMs} ms`);
}
module.exports = { playShortGame };
