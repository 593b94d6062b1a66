// Type-checked against the package's declarations (tsc --strict), never run: every
// part of the interface used the way an app would.
import { Maharajah, MaharajahWorker } from 'maharajah-engine';
import type { Engine, InfoLine, ParsedLine, RulesResult, Score, LoadOptions, RulesCallName } from 'maharajah-engine';

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
  engine.onLine = null;
  await engine.destroy();

  const w: MaharajahWorker = await MaharajahWorker.start(new URL('./maharajah-worker.js', import.meta.url));
  w.onLine = (line: string) => console.log(line);
  w.send('uci');
  const r: RulesResult = await w.legalMoves('startpos');
  const s: RulesResult = await w.call('status', 'startpos');
  console.log(r.text, s.text, w.engineVersion, (await w.armySuggest('white')).text);
  w.terminate();
}
void main();
