// The Maharajah engine in WebAssembly: the JS face of libmaharajah (src/api/maharajah.h).
// Works in Node (require) and in a Web Worker (importScripts after maharajah.js).
//
//   const lib = await Maharajah.load();              // loads maharajah.js + .wasm
//   const engine = lib.createEngine(line => console.log(line));
//   await engine.send('uci');
//   engine.send('position startpos moves e2e4');
//   engine.send('go movetime 1000');                  // resolves after the bestmove
//   engine.send('stop');                              // taken during the search
//   lib.legalMoves('startpos moves e2e4', 'g8')       // {ok: true, text: 'g8f6 g8h6'}
//   lib.toSan('startpos', 'e2e4 e7e5')                // {ok: true, text: 'e4 e5', moves: ['e4', 'e5']}
//   lib.moveList('startpos')                          // {ok: true, moves: [{uci, san, capture, ...}]}
//   lib.gameState('startpos')                         // {ok: true, status: 'ongoing', inCheck: false, ...}
//   engine.onAnalysis = (a) => ...                    // parsed info lines: depth, score, pv, pvSan
//
// The build is single-threaded: a search runs on this thread and yields to the event
// loop every ~40 ms (Asyncify), so "stop", "ponderhit" and "isready" sent during a
// search are executed at the next yield. Other lines wait until the search has ended,
// in order. One search at a time per loaded module: lines for a second engine of the
// same module wait too (load a module per worker for engines that think at once).
// The rules calls are synchronous and may be called at any time.
(function (root) {
  'use strict';

  const URGENT = new Set(['stop', 'ponderhit', 'isready']);
  const RESULT = { 0: 'ok', 1: 'quit', 2: 'timeout', '-1': 'argument', '-2': 'position', '-3': 'square', '-4': 'army',
    '-5': 'command', '-6': 'memory', '-7': 'notation', '-8': 'buffer' };
  const STATUS = ['ongoing', 'checkmate', 'stalemate', 'draw insufficient', 'draw fivefold', 'draw seventyfive'];
  const CLAIM = [null, 'threefold', 'fifty'];

  // An `info ... score ...` line as an object, or null for other lines. Scores are
  // turned to White's point of view when `whiteToMove` is false (UCI gives them from
  // the side to move's): {depth, seldepth, multipv, score: {cp} or {mate}, bound, wdl:
  // [win, draw, loss] for White or null, nodes, nps, time, hashfull, pv: [...], raw}.
  function parseInfo(line, whiteToMove = true) {
    const t = String(line).trim().split(/\s+/);
    if (t[0] !== 'info' || !t.includes('score') || !t.includes('pv')) return null;
    const sign = whiteToMove ? 1 : -1;
    const info = { depth: 0, seldepth: 0, multipv: 1, score: null, bound: null, wdl: null, nodes: 0, nps: 0, time: 0,
      hashfull: 0, pv: [], raw: String(line) };
    for (let i = 1; i < t.length; ++i) {
      const key = t[i];
      if (key === 'pv') { info.pv = t.slice(i + 1); break; }
      if (key === 'score') {
        const kind = t[++i], value = Number(t[++i]);
        info.score = kind === 'mate' ? { mate: sign * value } : { cp: sign * value };
      } else if (key === 'lowerbound' || key === 'upperbound') {
        // A bound on the mover's score is the opposite bound on White's when Black moves.
        info.bound = whiteToMove ? key.slice(0, 5) : (key === 'lowerbound' ? 'upper' : 'lower');
      } else if (key === 'wdl') {
        const w = [Number(t[i + 1]), Number(t[i + 2]), Number(t[i + 3])];
        info.wdl = whiteToMove ? w : [w[2], w[1], w[0]];
        i += 3;
      } else if (['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'time', 'hashfull'].includes(key)) {
        info[key] = Number(t[++i]);
      }
    }
    return info;
  }

  class Engine {
    constructor(lib, id, onLine) {
      this._lib = lib;
      this._id = id;
      this.onLine = onLine || null;
      this.onAnalysis = null;  // receives parseInfo objects with pvSan, for the position sent last
      this._position = 'startpos';
      this._whiteToMove = true;
      this._urgent = [];      // lines for the next yield of this engine's search
      this._busy = false;     // a line of this engine is running in the module
      this._handle = lib._m._mhw_engine_create(id);
      if (!this._handle) throw new Error('maharajah: cannot create an engine (out of memory)');
    }

    // Sends one protocol line. Returns a Promise of the result code (0 ok, 1 quit,
    // -5 the engine answered with an error line); "go" resolves after its bestmove.
    send(line) {
      if (!this._handle) return Promise.reject(new Error('maharajah: engine destroyed'));
      line = String(line).replace(/[\r\n]+$/, '');
      const command = line.trim().split(/\s+/)[0];
      if (this._busy && URGENT.has(command)) {
        this._urgent.push(line);
        return Promise.resolve(0);
      }
      if (this._busy && command === 'quit') this._urgent.push('stop');
      if (command === 'position') {
        // Kept for the analysis objects: their White's-view scores and SAN PVs.
        const text = line.trim().replace(/^position\s+/, '');
        const state = this._lib.gameState(text);
        if (state.ok) {
          this._position = text;
          this._whiteToMove = state.sideToMove === 'white';
        }
      }
      return this._lib._enqueue(() => this._run(line));
    }

    // Stops a running search and frees the engine; resolves when it is gone. No line
    // is delivered after that.
    destroy() {
      if (!this._handle) return Promise.resolve();
      if (this._busy) this._urgent.push('stop');
      return this._lib._enqueue(() => {
        this._lib._m._mhw_engine_destroy(this._handle);
        this._handle = 0;
        this._lib._engines.delete(this._id);
      });
    }

    async _run(line) {
      if (!this._handle) return -1;
      this._busy = true;
      try {
        return await this._lib._m.ccall('mhw_engine_send', 'number', ['number', 'string'], [this._handle, line], { async: true });
      } finally {
        this._busy = false;
        this._urgent.length = 0;
      }
    }
  }

  class Maharajah {
    // options: {factory, locateFile, wasmBinary} (factory: the MaharajahModule function
    // of maharajah.js; found by itself in a worker after importScripts and in Node).
    static async load(options = {}) {
      const lib = new Maharajah();
      let factory = options.factory;
      if (!factory && typeof root.MaharajahModule === 'function') factory = root.MaharajahModule;
      if (!factory && typeof require === 'function') factory = require('./maharajah.js');
      if (!factory) throw new Error('maharajah: load maharajah.js first (importScripts) or pass options.factory');
      const settings = {
        mhLine: (id, line) => lib._deliver(id, line),
        mhTakeUrgent: (id) => {
          const e = lib._engines.get(id);
          return e && e._urgent.length ? e._urgent.shift() : null;
        },
        print: () => {},
        printErr: (text) => { if (options.printErr) options.printErr(text); },
      };
      if (options.locateFile) settings.locateFile = options.locateFile;
      if (options.wasmBinary) settings.wasmBinary = options.wasmBinary;
      else if (typeof process === 'object' && process.versions && process.versions.node && typeof require === 'function') {
        // Node 18+ has fetch(), which the loader would try on a file path: read the file.
        settings.wasmBinary = require('fs').readFileSync(require('path').join(__dirname, 'maharajah.wasm'));
      }
      lib._m = await factory(settings);
      return lib;
    }

    constructor() {
      this._engines = new Map();
      this._next = 1;
      this._chain = Promise.resolve();
    }

    createEngine(onLine) {
      const id = this._next++;
      const e = new Engine(this, id, onLine);
      this._engines.set(id, e);
      return e;
    }

    get libraryVersion() { return this._m.UTF8ToString(this._m._mh_library_version()); }
    get engineVersion() { return this._m.UTF8ToString(this._m._mh_engine_version()); }

    // The rules calls: each returns {ok, code, text} (text: the answer, or the error).
    legalMoves(position, square) { return this._call('mh_legal_moves', ['string', 'string'], [position, square || '']); }
    status(position) { return this._call('mh_game_status', ['string'], [position]); }
    fen(position) { return this._call('mh_fen', ['string'], [position]); }
    flag(position, color) { return this._call('mh_flag', ['number'], [colorCode(color)], position); }
    armyCheck(color, army) { return this._call('mh_army_check', ['number', 'string'], [colorCode(color), army]); }
    // seed: a number below 2^53 or a BigInt below 2^64.
    armySuggest(color, seed = 0) {
      let s;
      try {
        s = BigInt(seed);
      } catch (e) {
        return { ok: false, code: -1, error: 'argument', text: 'army suggest: the seed must be an integer' };
      }
      if (s < 0n || s >= (1n << 64n)) return { ok: false, code: -1, error: 'argument', text: 'army suggest: the seed must be 0 to 2^64-1' };
      const low = Number(s & 0xffffffffn), high = Number((s >> 32n) & 0xffffffffn);
      return this._call('mhw_army_suggest', ['number', 'number', 'number'], [colorCode(color), low, high]);
    }

    // Notation (SAN, PGN) and move facts. Moves may be a string or an array.
    toSan(position, uciMoves) { return withWords(this._call('mh_to_san', ['string', 'string'], [position, words(uciMoves)])); }
    fromSan(position, sanMoves) { return withWords(this._call('mh_from_san', ['string', 'string'], [position, words(sanMoves)])); }
    // {ok, moves: [{uci, san, capture, enPassant, castle: {from, to} or null, promotion, check, mate}]}
    moveList(position) {
      const r = this._call('mh_move_list_text', ['string'], [position]);
      r.moves = r.ok ? r.text.split('\n').filter((l) => l).map(parseMoveLine) : [];
      return r;
    }
    // options: {flag: 'white' | 'black' (that side's flag fell), tags: {White: 'Ann', ...}}
    pgn(position, options = {}) {
      const flag = options.flag === undefined || options.flag === null ? -1 : colorCode(options.flag);
      if (flag === -1 && options.flag !== undefined && options.flag !== null)
        return { ok: false, code: -1, error: 'argument', text: 'pgn: flag must be white or black' };
      let tags = '';
      for (const [k, v] of Object.entries(options.tags || {}))
        tags += `[${k} "${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"] `;
      return this._call('mh_pgn', ['string', 'number', 'string'], [position, flag, tags]);
    }
    // The first game of a PGN text: {ok, text: a position string for the other calls}.
    pgnRead(pgn) { return this._call('mh_pgn_read', ['string'], [pgn]); }
    // {ok, inCheck}
    inCheck(position) {
      const r = this._callInts('mh_incheck', position, 1);
      if (r.ok) r.inCheck = r.values[0] === 1;
      return r;
    }
    // {ok, status: 'ongoing' | 'checkmate' | ..., claim: null | 'threefold' | 'fifty', sideToMove, inCheck}
    gameState(position) {
      const r = this._callInts('mh_game_state_of', position, 4);
      if (r.ok) {
        r.status = STATUS[r.values[0]];
        r.claim = CLAIM[r.values[1]];
        r.sideToMove = r.values[2] === 0 ? 'white' : 'black';
        r.inCheck = r.values[3] === 1;
      }
      return r;
    }

    // A call answering `count` ints through a pointer: {ok, code, error, text, values}.
    _callInts(name, position, count) {
      const m = this._m;
      const out = m._malloc(4 * count);
      const size = m.lengthBytesUTF8(String(position)) + 1, p = m._malloc(size);
      try {
        m.stringToUTF8(String(position), p, size);
        const code = m['_' + name](p, out);
        const values = Array.from({ length: count }, (_, i) => m.HEAP32[(out >> 2) + i]);
        return { ok: code === 0, code, error: code === 0 ? null : RESULT[code] || String(code),
          text: code === 0 ? '' : m.UTF8ToString(m._mh_last_error()), values };
      } finally {
        m._free(p);
        m._free(out);
      }
    }

    _call(name, types, args, position) {
      if (position !== undefined) {
        // mh_flag(position, color, out): the position first.
        types = ['string', ...types];
        args = [position, ...args];
      }
      // Direct export calls, not ccall: during a paused search, emscripten's ccall would
      // take the call for the search's own continuation (a Promise for a result, and the
      // search's "go" never resolving).
      const m = this._m;
      const out = m._malloc(4);
      const owned = [];
      try {
        const cargs = args.map((a, i) => {
          if (types[i] !== 'string') return a;
          const size = m.lengthBytesUTF8(String(a)) + 1, p = m._malloc(size);
          m.stringToUTF8(String(a), p, size);
          owned.push(p);
          return p;
        });
        m.HEAPU32[out >> 2] = 0;
        const code = m['_' + name](...cargs, out);
        const p = m.HEAPU32[out >> 2];
        // The calls since interface 1.1 keep the error apart from the answer.
        const text = p ? m.UTF8ToString(p) : code !== 0 ? m.UTF8ToString(m._mh_last_error()) : '';
        m._mh_free(p);
        return { ok: code === 0, code, error: code === 0 ? null : RESULT[code] || String(code), text };
      } finally {
        for (const p of owned) m._free(p);
        m._free(out);
      }
    }

    // Runs fn after everything queued before it (one module call that may sleep at a time).
    _enqueue(fn) {
      const run = this._chain.then(fn);
      this._chain = run.catch(() => {});
      return run;
    }

    _deliver(id, line) {
      const e = this._engines.get(id);
      if (e && e.onLine) {
        try { e.onLine(line); } catch (err) { setTimeout(() => { throw err; }); }
      }
      if (e && e.onAnalysis && line.startsWith('info ')) {
        const info = parseInfo(line, e._whiteToMove);
        if (info) {
          const san = this.toSan(e._position, info.pv);
          info.pvSan = san.ok ? san.moves : [];
          try { e.onAnalysis(info); } catch (err) { setTimeout(() => { throw err; }); }
        }
      }
    }
  }

  function words(moves) { return Array.isArray(moves) ? moves.join(' ') : String(moves || ''); }
  function withWords(r) {
    r.moves = r.ok && r.text ? r.text.split(' ') : [];
    return r;
  }
  // "e1g1 O-O castle h1f1" -> {uci: 'e1g1', san: 'O-O', castle: {from: 'h1', to: 'f1'}, ...}
  function parseMoveLine(line) {
    const t = line.split(' ');
    const castle = t.indexOf('castle');
    return { uci: t[0], san: t[1], capture: t.includes('capture'), enPassant: t.includes('enpassant'),
      castle: castle > 0 ? { from: t[castle + 1].slice(0, 2), to: t[castle + 1].slice(2, 4) } : null,
      promotion: t.includes('promotion'), check: t.includes('check'), mate: t.includes('mate') };
  }

  function colorCode(color) {
    if (color === 'white' || color === 0) return 0;
    if (color === 'black' || color === 1) return 1;
    return -1;
  }

  Maharajah.parseInfo = parseInfo;
  if (typeof module === 'object' && module.exports) module.exports = { Maharajah };
  else root.Maharajah = Maharajah;
})(typeof self !== 'undefined' ? self : this);
