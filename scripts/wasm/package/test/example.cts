// The CommonJS view of the same declarations (tsc --strict), never run.
import pkg = require('maharajah-engine');
async function main(): Promise<void> {
  const lib: pkg.Maharajah = await pkg.Maharajah.load();
  const e: pkg.Engine = lib.createEngine();
  const result: pkg.RulesResult = lib.status('startpos');
  const best: pkg.ParsedLine = pkg.Maharajah.parseLine('bestmove e2e4');
  console.log(result.text, best.type, await e.send('isready'), pkg.default === pkg.Maharajah);
}
void main();
