// Type-checked against the package's declarations (tsc --strict), never run: every
// part of the interface used the way an app would.
import { Maharajah, MaharajahWorker } from 'maharajah-engine';
import type { Engine, InfoLine, ParsedLine, RulesResult, Score, LoadOptions, RulesCallName, Analysis, MoveFacts,
  MovesResult, GameStateResult } from 'maharajah-engine';

async function main(): Promise<void> {
  const options: LoadOptions = { printErr: (text: string) => console.error(text) };
  const lib: Maharajah = await Maharajah.load(options);
  const engine: Engine = lib.createEngine((line: string) => {
    const parsed: ParsedLine = Maharajah.parseLine(line);
    if (parsed.type === 'info') {
      const info = parsed as InfoLine;
      const score: Score | undefined = info.score;
      const depth: number = info.depth ?? 0;
      const pv: string[] = info.pv ?? [];
      console.log(depth, score?.unit, score?.value, score?.bound, pv.join(' '), info.nodes, info.string);
    }
  });
  const code: number = await engine.send('go depth 5');
  const moves: RulesResult = lib.legalMoves('startpos', 'g1');
  const ok: boolean = moves.ok && lib.status('startpos').text === 'ongoing';
  const texts: string[] = [lib.fen('startpos').text, lib.flag('startpos', 'white').text, lib.armyCheck(0, 'RNBQKBNR/PPPPPPPP').text,
                           lib.armySuggest('black', 12n).text, lib.armySuggest(1, 7).text, lib.libraryVersion, lib.engineVersion];
  const names: readonly RulesCallName[] = Maharajah.RULES_CALLS;
  console.log(code, ok, texts, names, moves.error);
  engine.onAnalysis = (a: Analysis) => {
    const cp: number | undefined = a.score && 'cp' in a.score ? a.score.cp : undefined;
    console.log(a.depth, a.multipv, cp, a.wdl?.[0], a.pv.join(' '), (a.pvSan ?? []).join(' '));
  };
  const san: MovesResult = lib.toSan('startpos', ['e2e4', 'e7e5']);
  const uci: string[] = lib.fromSan('startpos', 'e4 e5').moves;
  const facts: MoveFacts[] = lib.moveList('startpos').moves;
  const castle: { from: string; to: string } | null = facts[0].castle;
  const state: GameStateResult = lib.gameState('startpos');
  const check: boolean | undefined = lib.inCheck('startpos').inCheck;
  const pgn: string = lib.pgn('startpos moves e2e4', { flag: 'white', tags: { White: 'Ann' } }).text;
  const back: string = lib.pgnRead(pgn).text;
  const parsed: Analysis | null = Maharajah.parseInfo('info depth 1 score cp 5 pv e2e4', true);
  console.log(san.moves, uci, facts[0].san, castle, state.status, state.claim, check, back, parsed?.score);
  engine.onLine = null;
  engine.onAnalysis = null;
  await engine.destroy();

  const w: MaharajahWorker = await MaharajahWorker.start(new URL('./maharajah-worker.js', import.meta.url));
  w.onLine = (line: string) => console.log(line);
  w.send('uci');
  const r: RulesResult = await w.legalMoves('startpos');
  const s: RulesResult = await w.call('status', 'startpos');
  console.log(r.text, s.text, w.engineVersion, (await w.armySuggest('white')).text);
  const list: MoveFacts[] = (await w.moveList('startpos')).moves;
  console.log(list.length, (await w.toSan('startpos', 'e2e4')).moves[0], (await w.gameState('startpos')).inCheck);
  w.terminate();
}
void main();
