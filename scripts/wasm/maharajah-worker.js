// A Web Worker running one Maharajah module (maharajah.js + maharajah-api.js beside it):
// its engine, so that a search never freezes the page, and the rules calls of the same
// module (one heap; answered during a search at its next yield). The page side is
// MaharajahWorker (maharajah-api.js). Messages:
//   page -> worker  {type: 'send', line}                    a protocol line
//                   {type: 'call', id, name, args}          a rules call (Maharajah.RULES_CALLS:
//                                                           legalMoves, status, fen, flag, ...)
//   worker -> page  {type: 'ready', library, engine}        after loading
//                   {type: 'line', line}                    every engine output line
//                   {type: 'result', id, result}            a rules call's {ok, code, error, text}
//                   {type: 'error', message}                loading failed
importScripts('maharajah.js', 'maharajah-api.js');

const CALLS = new Set(Maharajah.RULES_CALLS);
let lib = null, engine = null;
const early = [];

function handle(msg) {
  if (msg.type === 'send') engine.send(msg.line);
  else if (msg.type === 'call') {
    let result;
    try {
      if (!CALLS.has(msg.name)) throw new Error('unknown call ' + msg.name);
      result = lib[msg.name](...msg.args);
    } catch (e) {
      result = { ok: false, code: -1, error: 'argument', text: String(e && e.message || e) };
    }
    postMessage({ type: 'result', id: msg.id, result });
  }
}

onmessage = (event) => { if (engine) handle(event.data); else early.push(event.data); };

Maharajah.load().then((l) => {
  lib = l;
  engine = lib.createEngine((line) => postMessage({ type: 'line', line }));
  postMessage({ type: 'ready', library: lib.libraryVersion, engine: lib.engineVersion });
  for (const msg of early.splice(0)) handle(msg);
}).catch((e) => postMessage({ type: 'error', message: String(e) }));
