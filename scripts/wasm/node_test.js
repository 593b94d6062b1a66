#!/usr/bin/env node
// The WebAssembly engine in Node: a full engine-versus-engine game from suggested armies
// (every move checked with the rules calls), a standard game, stop/isready during a
// search, destroy during a search, bad input, and the figures: load-to-uciok time and
// bench nodes/s, the module's memory after loading and at the end.
//   node scripts/wasm/node_test.js [build-wasm/package]      (exit 0: every check passed)
// Loads the package's CommonJS entry (index.cjs) from the folder given.
'use strict';
const path = require('path');
const dir = path.resolve(process.argv[2] || path.join(__dirname, '..', '..', 'build-wasm', 'package'));
const { Maharajah } = require(path.join(dir, 'index.cjs'));
const MiB = (bytes) => (bytes / 1048576).toFixed(1) + ' MiB';

let checks = 0;
function check(cond, what) {
  ++checks;
  if (!cond) {
    console.error('FAILED: ' + what);
    process.exit(1);
  }
}

// An engine whose lines are collected; next(prefix) resolves with the next line so starting.
function collector(lib) {
  const state = { lines: [], waiters: [] };
  state.engine = lib.createEngine((line) => {
    state.lines.push(line);
    state.waiters = state.waiters.filter((w) => !(line.startsWith(w.prefix) && (w.resolve(line), true)));
  });
  state.next = (prefix) => new Promise((resolve) => state.waiters.push({ prefix, resolve }));
  return state;
}

async function playGame(lib, start, movetime) {
  const white = collector(lib), black = collector(lib);
  for (const p of [white, black]) {
    await p.engine.send('ucinewgame');
    await p.engine.send('setoption name Hash value 8');
  }
  const moves = [];
  let status = 'ongoing';
  for (let ply = 0; ply < 1500; ++ply) {
    const position = start + (moves.length ? ' moves ' + moves.join(' ') : '');
    status = lib.status(position).text;
    if (!status.startsWith('ongoing')) break;
    const legal = lib.legalMoves(position);
    check(legal.ok && legal.text.length > 0, 'an ongoing position has legal moves: ' + position);
    const side = ply % 2 ? black : white;
    await side.engine.send('position ' + position);
    const best = side.next('bestmove');
    await side.engine.send('go movetime ' + movetime);
    const move = (await best).split(' ')[1];
    check(legal.text.split(' ').includes(move), `bestmove ${move} is legal in ${position}`);
    const fromSquare = lib.legalMoves(position, move.slice(0, 2));
    check(fromSquare.ok && fromSquare.text.split(' ').includes(move), 'the move is among its square\'s moves');
    moves.push(move);
  }
  check(['checkmate', 'stalemate', 'draw insufficient', 'draw fivefold', 'draw seventyfive'].includes(status),
        'the game ended with a final status: ' + status);
  // The rules call and the engine agree on the final FEN.
  const final = start + ' moves ' + moves.join(' ');
  const fenLine = white.next('fen ');
  await white.engine.send('position ' + final);
  await white.engine.send('fen');
  check((await fenLine).slice(4) === lib.fen(final).text, 'fen() equals the engine\'s fen');
  await white.engine.destroy();
  await black.engine.destroy();
  return { status, plies: moves.length };
}

(async () => {
  const t0 = process.hrtime.bigint();
  const lib = await Maharajah.load();
  const first = collector(lib);
  const uciok = first.next('uciok');
  first.engine.send('uci');
  await uciok;
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const memoryAtLoad = lib._m.HEAP8.length;
  check(/^Maharajah /.test(lib.engineVersion) && lib.libraryVersion === '1.0.0', 'version strings');
  check(first.lines.includes('option name Threads type spin default 1 min 1 max 1'), 'single-threaded: Threads max 1');

  // What a page needs: one engine with the default hash, searching, and the rules calls.
  {
    const best = first.next('bestmove');
    await first.engine.send('isready');
    await first.engine.send('go depth 12');
    check((await best).startsWith('bestmove '), 'a first search');
  }
  const memoryOneEngine = lib._m.HEAP8.length;
  check(memoryOneEngine === memoryAtLoad, `one engine's search grew the memory from ${MiB(memoryAtLoad)} to ${MiB(memoryOneEngine)}: ` +
        'raise MAHARAJAH_WASM_INITIAL_MEMORY');

  // parseLine (pure JS).
  const parsed = Maharajah.parseLine('info depth 7 seldepth 9 multipv 1 score cp -31 upperbound nodes 1234 nps 5000 hashfull 3 time 20 pv e2e4 e7e5');
  check(parsed.type === 'info' && parsed.depth === 7 && parsed.score.unit === 'cp' && parsed.score.value === -31 &&
        parsed.score.bound === 'upper' && parsed.nodes === 1234 && parsed.pv.join(' ') === 'e2e4 e7e5', 'parseLine info');
  check(Maharajah.parseLine('bestmove g1f3 ponder g8f6').ponder === 'g8f6' &&
        Maharajah.parseLine('info string hello there').string === 'hello there', 'parseLine bestmove, info string');
  const realInfo = first.lines.filter((l) => l.startsWith('info depth')).map(Maharajah.parseLine);
  check(realInfo.length >= 12 && realInfo.every((i) => Number.isInteger(i.depth) && i.score && i.pv && i.pv.length > 0),
        'parseLine reads every info line of a search');

  // Rules calls, good and bad.
  check(lib.legalMoves('startpos').text.split(' ').length === 20, '20 moves at the start');
  check(lib.legalMoves('startpos', 'g1').text === 'g1f3 g1h3', 'knight moves');
  check(lib.status('startpos moves f2f3 e7e5 g2g4 d8h4').text === 'checkmate', 'fool\'s mate');
  check(lib.flag('startpos moves e2e4', 'black').text === 'aborted', 'flag before moving');
  const bad = [lib.legalMoves('startpos moves e2e5'), lib.legalMoves('fen 8/8 w - - 0 1'), lib.status('army X'),
               lib.legalMoves('startpos', 'z9'), lib.armyCheck('white', 'QQQQKQQQ/PPPPPPPP'), lib.armySuggest('green')];
  const codes = bad.map((r) => r.error);
  check(JSON.stringify(codes) === JSON.stringify(['position', 'position', 'position', 'square', 'army', 'argument']),
        'bad input error codes: ' + codes);
  check(bad.every((r) => !r.ok && r.text.length > 0 && !r.text.includes('\n')), 'bad input gives one-line messages');
  for (let seed = 0; seed < 50; ++seed)
    for (const c of ['white', 'black']) {
      const army = lib.armySuggest(c, BigInt(seed) * 0x9E3779B97F4A7C15n % (1n << 64n));
      check(army.ok && lib.armyCheck(c, army.text).ok, 'suggested armies pass army check');
    }

  // The engine: a bad line is one error line and changes nothing.
  await first.engine.send('position startpos moves e2e4');
  let fen = first.next('fen ');
  await first.engine.send('fen');
  const before = await fen;
  const errorsBefore = first.lines.filter((l) => l.startsWith('info string error')).length;
  check(await first.engine.send('position startpos moves e2e4 e2e4') === -5, 'illegal move: error code');
  check(await first.engine.send('frobnicate') === -5, 'unknown command: error code');
  check(first.lines.filter((l) => l.startsWith('info string error')).length === errorsBefore + 2, 'one error line each');
  fen = first.next('fen ');
  await first.engine.send('fen');
  check(await fen === before, 'position unchanged after bad input');

  // stop and isready during go infinite.
  const best = first.next('bestmove');
  const ready = first.next('readyok');
  let bestSeen = false;
  best.then(() => { bestSeen = true; });
  const searching = first.engine.send('go infinite');
  await new Promise((r) => setTimeout(r, 300));
  // Rules calls while the search is paused at a yield answer normally.
  const during = lib.legalMoves('startpos moves e2e4', 'g8');
  check(during.ok && during.text === 'g8f6 g8h6', 'a rules call during a search: ' + JSON.stringify(during));
  check(lib.armySuggest('white', 'x').error === 'argument', 'a bad seed is an argument error');
  first.engine.send('isready');
  await ready;
  check(!bestSeen, 'readyok during the search, before any bestmove');
  const tStop = Date.now();
  first.engine.send('stop');
  const move = (await best).split(' ')[1];
  const stopMs = Date.now() - tStop;
  await searching;
  check(lib.legalMoves('startpos moves e2e4').text.split(' ').includes(move), 'bestmove after stop is legal');
  check(stopMs < 1000, `stop answered in ${stopMs} ms`);

  // go ponder waits for ponderhit, then plays on its clock.
  const pondered = first.next('bestmove');
  let ponderDone = false;
  pondered.then(() => { ponderDone = true; });
  await first.engine.send('position startpos moves e2e4');
  const pondering = first.engine.send('go ponder wtime 3000 btime 3000');
  await new Promise((r) => setTimeout(r, 400));
  check(!ponderDone, 'no bestmove while pondering');
  first.engine.send('ponderhit');
  const ponderMove = (await pondered).split(' ')[1];
  await pondering;
  check(lib.legalMoves('startpos moves e2e4').text.split(' ').includes(ponderMove), 'bestmove after ponderhit is legal');

  // A time limit holds without any stop.
  const timed = first.next('bestmove');
  const tGo = Date.now();
  await first.engine.send('go movetime 300');
  await timed;
  const goMs = Date.now() - tGo;
  check(goMs >= 150 && goMs < 800, `go movetime 300 took ${goMs} ms`);

  // Lines sent during a search wait their turn and run in order after it.
  const order = [];
  const q = first.next('bestmove').then(() => order.push('bestmove'));
  first.engine.send('go movetime 200');
  const fenAfter = first.next('fen ').then((l) => order.push(l));
  first.engine.send('position startpos moves d2d4');
  await first.engine.send('fen');
  await q;
  await fenAfter;
  check(order[0] === 'bestmove' && order[1].startsWith('fen rnbqkbnr/pppppppp/8/8/3P4'), 'deferred lines run after the search: ' + order);

  // destroy during go infinite: resolves, and no line arrives afterwards.
  const doomed = collector(lib);
  doomed.engine.send('go infinite');
  await new Promise((r) => setTimeout(r, 100));
  await doomed.engine.destroy();
  const linesAtDestroy = doomed.lines.length;
  check(doomed.lines.some((l) => l.startsWith('bestmove')), 'destroy: the stopped search still gave its bestmove');
  await new Promise((r) => setTimeout(r, 200));
  check(doomed.lines.length === linesAtDestroy, 'no line after destroy');

  // Full games: suggested armies (the variant) and standard chess.
  const w = lib.armySuggest('white', 2027).text, b = lib.armySuggest('black', 4049).text;
  const variant = await playGame(lib, `army ${w} ${b}`, 15);
  console.log(`variant game (army ${w} ${b}): ${variant.status} after ${variant.plies} plies`);
  const standard = await playGame(lib, 'startpos', 15);
  console.log(`standard game: ${standard.status} after ${standard.plies} plies`);

  // Figures.
  const benchLines = [];
  const bencher = lib.createEngine((l) => benchLines.push(l));
  await bencher.send('bench');
  const nodes = benchLines.find((l) => l.startsWith('Nodes searched')), nps = benchLines.find((l) => l.startsWith('Nodes/second'));
  check(nodes !== undefined && nps !== undefined, 'bench prints its figures');
  // The same search and the same evaluations as the native build (whose network output
  // may be vectorised): equal bench node counts and equal evaluations, net and classical.
  const native = process.env.MAHARAJAH_NATIVE;
  if (native) {
    const { execFileSync } = require('child_process');
    const run = (input) => execFileSync(native, [], { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'] });
    const nativeNodes = run('bench\n').split('\n').find((l) => l.startsWith('Nodes searched'));
    check(nativeNodes === nodes, `bench nodes: WebAssembly '${nodes}', native '${nativeNodes}'`);
    const positions = ['startpos', 'startpos moves e2e4 e7e5 g1f3', `army ${w} ${b} moves e2e4`,
                       'fen 4k3/8/PPP5/8/8/5ppp/8/4K3 w - - 0 1 Vv -'];
    for (const mode of ['nnue', 'classical']) {
      for (const p of positions) {
        const script = `setoption name EvalMode value ${mode}\nposition ${p}\neval\n`;
        const final = (text) => text.split('\n').find((l) => l.startsWith('Final evaluation'));
        const lines = [];
        const e = lib.createEngine((l) => lines.push(l));
        for (const line of script.trim().split('\n')) await e.send(line);
        await e.destroy();
        const wasmEval = final(lines.join('\n'));
        check(wasmEval !== undefined && wasmEval === final(run(script)), `${mode} eval of ${p}: ${wasmEval}`);
      }
    }
    console.log(`native comparison: bench nodes and ${2 * positions.length} evaluations equal`);
  }
  await bencher.destroy();
  await first.engine.destroy();
  console.log(`load to uciok ${loadMs.toFixed(0)} ms; bench: ${nodes.replace(/\s+/g, ' ')}, ${nps.replace(/\s+/g, ' ')}`);
  // The heap only grows: its size now is the most any of the above needed.
  console.log(`memory: ${MiB(memoryAtLoad)} after loading, ${MiB(memoryOneEngine)} after one engine's search ` +
              `(default hash), ${MiB(lib._m.HEAP8.length)} at the end (several engines)`);
  console.log(`node test: all ${checks} checks passed`);
})().catch((e) => {
  console.error('FAILED with an exception: ' + (e && e.stack || e));
  process.exit(1);
});
