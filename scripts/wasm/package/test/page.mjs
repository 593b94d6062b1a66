// A page's script importing the package, bundled by esbuild (scripts/wasm/package_test).
// On the page's thread: Maharajah.load() and a few engine moves checked by the rules
// calls. In a worker (MaharajahWorker, the way pages should use it): load to uciok,
// rules calls, and bench. window.bundleTest resolves with what happened.
import { Maharajah, MaharajahWorker } from 'maharajah-engine';

async function onPage() {
  const t0 = performance.now();
  const lib = await Maharajah.load();
  let waiting = null;
  const engine = lib.createEngine((line) => {
    if (waiting && line.startsWith(waiting.prefix)) waiting.resolve(line), waiting = null;
  });
  const next = (prefix) => new Promise((resolve) => { waiting = { prefix, resolve }; });
  const uciok = next('uciok');
  engine.send('uci');
  await uciok;
  const loadMs = performance.now() - t0;
  const moves = [];
  for (let ply = 0; ply < 6; ++ply) {
    const position = 'startpos' + (moves.length ? ' moves ' + moves.join(' ') : '');
    const legal = lib.legalMoves(position).text.split(' ');
    await engine.send('position ' + position);
    const best = next('bestmove');
    await engine.send('go depth 5');
    const move = Maharajah.parseLine(await best).move;
    if (!legal.includes(move)) throw new Error(`illegal ${move} in ${position}`);
    moves.push(move);
  }
  await engine.destroy();
  return { loadMs, moves, status: lib.status('startpos moves ' + moves.join(' ')).text };
}

async function inWorker() {
  const t0 = performance.now();
  const w = await MaharajahWorker.start('maharajah-worker.js');
  const lines = [];
  let waiting = null;
  w.onLine = (line) => {
    lines.push(line);
    if (waiting && line.startsWith(waiting.prefix)) waiting.resolve(line), waiting = null;
  };
  const next = (prefix) => new Promise((resolve) => { waiting = { prefix, resolve }; });
  let answer = next('uciok');
  w.send('uci');
  await answer;
  const loadMs = performance.now() - t0;
  const legal = await w.legalMoves('startpos', 'g1');
  if (legal.text !== 'g1f3 g1h3') throw new Error('worker legalMoves: ' + legal.text);
  answer = next('Nodes/second');
  w.send('bench');
  const nps = Number((await answer).split(':')[1]);
  const nodes = lines.find((l) => l.startsWith('Nodes searched')).split(':')[1].trim();
  w.terminate();
  return { loadMs, nodes, nps, engine: w.engineVersion };
}

window.bundleTest = (async () => ({ page: await onPage(), worker: await inWorker() }))();
