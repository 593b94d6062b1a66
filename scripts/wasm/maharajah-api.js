// The Maharajah engine in WebAssembly: the JS face of libmaharajah (src/api/maharajah.h).
// No dependency of its own and no Node module: a classic script (a Web Worker after
// importScripts('maharajah.js')) finds the loader as the global MaharajahModule; the npm
// package's entries (index.mjs, index.cjs) pass the loader and, in Node, the wasm bytes.
// The declarations of everything here are in the package's index.d.ts.
//
//   const lib = await Maharajah.load();              // loads maharajah.js + .wasm
//   const engine = lib.createEngine(line => console.log(line));
//   await engine.send('uci');
//   engine.send('position startpos moves e2e4');
//   engine.send('go movetime 1000');                  // resolves after the bestmove
//   engine.send('stop');                              // taken during the search
//   lib.legalMoves('startpos moves e2e4', 'g8')       // {ok: true, text: 'g8f6 g8h6'}
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
  const INFO_NUMBERS = new Set(['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'hashfull', 'time', 'tbhits', 'currmovenumber']);
  const RESULT = { 0: 'ok', 1: 'quit', '-1': 'argument', '-2': 'position', '-3': 'square', '-4': 'army', '-5': 'command', '-6': 'memory' };

  class Engine {
    constructor(lib, id, onLine) {
      this._lib = lib;
      this._id = id;
      this.onLine = onLine || null;
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
    // options: {factory, locateFile, wasmBinary, printErr} (factory: the MaharajahModule
    // function of maharajah.js; a classic script finds it as a global; the package's
    // entries pass it).
    static async load(options = {}) {
      const lib = new Maharajah();
      // The package's entries: the loader, and in Node the wasm bytes (Node's fetch()
      // does not read file paths).
      if (Maharajah.environment) options = Object.assign({}, await Maharajah.environment(), options);
      let factory = options.factory;
      if (!factory && typeof root.MaharajahModule === 'function') factory = root.MaharajahModule;
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
      lib._m = await factory(settings);
      return lib;
    }

    // An engine output line as an object (no module needed): for "info" lines
    // {type: 'info', depth, seldepth, multipv, score: {unit: 'cp'|'mate', value, bound?},
    // nodes, nps, hashfull, time, currmove, currmovenumber, pv: [...], string}, each field
    // only when the line has it; for "bestmove" {type: 'bestmove', move, ponder?}; any
    // other line {type: <its first word>, text}.
    static parseLine(line) {
      const words = String(line).trim().split(/\s+/);
      const type = words[0] || '';
      if (type === 'bestmove') {
        const r = { type, move: words[1] || '(none)' };
        if (words[2] === 'ponder' && words[3]) r.ponder = words[3];
        return r;
      }
      if (type !== 'info') return { type, text: words.slice(1).join(' ') };
      const r = { type };
      for (let i = 1; i < words.length; ++i) {
        const key = words[i];
        if (key === 'string') { r.string = words.slice(i + 1).join(' '); break; }
        if (key === 'pv') { r.pv = words.slice(i + 1); break; }
        if (key === 'score') {
          const unit = words[i + 1], value = Number(words[i + 2]);
          if ((unit === 'cp' || unit === 'mate') && Number.isFinite(value)) {
            r.score = { unit, value };
            i += 2;
            if (words[i + 1] === 'lowerbound' || words[i + 1] === 'upperbound') r.score.bound = words[++i].slice(0, 5);
          }
          continue;
        }
        if (key === 'currmove') { r.currmove = words[++i]; continue; }
        if (INFO_NUMBERS.has(key) && i + 1 < words.length) {
          const v = Number(words[i + 1]);
          if (Number.isFinite(v)) { r[key] = v; ++i; }
        }
      }
      return r;
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
        const code = m['_' + name](...cargs, out);
        const p = m.HEAPU32[out >> 2];
        const text = p ? m.UTF8ToString(p) : '';
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
    }
  }

  // The engine and the rules calls of one module running in a Web Worker
  // (maharajah-worker.js), for pages: a search never blocks the page, and the rules
  // calls, answered by the same module (one heap), return Promises.
  //   const w = await MaharajahWorker.start('maharajah-worker.js');
  //   w.onLine = (line) => ...; w.send('go movetime 500'); await w.legalMoves('startpos');
  class MaharajahWorker {
    static start(url = 'maharajah-worker.js', options = {}) {
      const worker = options.worker || new Worker(url);
      return new Promise((resolve, reject) => {
        const w = new MaharajahWorker(worker);
        w._ready = { resolve, reject };
      });
    }

    constructor(worker) {
      this._worker = worker;
      this._calls = new Map();
      this._next = 1;
      this.onLine = null;
      this.libraryVersion = '';
      this.engineVersion = '';
      worker.onmessage = (event) => this._message(event.data);
      worker.onerror = (event) => this._failed(new Error('maharajah worker: ' + (event.message || 'error')));
    }

    send(line) { this._worker.postMessage({ type: 'send', line: String(line) }); }

    call(name, ...args) {
      if (!RULES_CALLS.includes(name)) return Promise.reject(new Error('maharajah: not a rules call: ' + name));
      const id = this._next++;
      return new Promise((resolve, reject) => {
        this._calls.set(id, { resolve, reject });
        this._worker.postMessage({ type: 'call', id, name, args });
      });
    }

    terminate() {
      this._worker.terminate();
      this._failed(new Error('maharajah worker: terminated'));
    }

    _message(msg) {
      if (msg.type === 'line') {
        if (this.onLine) this.onLine(msg.line);
      } else if (msg.type === 'result') {
        const c = this._calls.get(msg.id);
        this._calls.delete(msg.id);
        if (c) c.resolve(msg.result);
      } else if (msg.type === 'ready') {
        this.libraryVersion = msg.library;
        this.engineVersion = msg.engine;
        if (this._ready) this._ready.resolve(this), this._ready = null;
      } else if (msg.type === 'error') {
        this._failed(new Error('maharajah worker: ' + msg.message));
      }
    }

    _failed(error) {
      if (this._ready) this._ready.reject(error), this._ready = null;
      for (const c of this._calls.values()) c.reject(error);
      this._calls.clear();
    }
  }
  // The rules calls of Maharajah, each also a method of MaharajahWorker (a Promise).
  const RULES_CALLS = ['legalMoves', 'status', 'fen', 'flag', 'armyCheck', 'armySuggest'];
  for (const name of RULES_CALLS) MaharajahWorker.prototype[name] = function (...args) { return this.call(name, ...args); };
  Maharajah.RULES_CALLS = RULES_CALLS;

  function colorCode(color) {
    if (color === 'white' || color === 0) return 0;
    if (color === 'black' || color === 1) return 1;
    return -1;
  }

  if (typeof module === 'object' && module.exports) module.exports = { Maharajah, Engine, MaharajahWorker };
  else root.Maharajah = Maharajah, root.MaharajahWorker = MaharajahWorker;
})(typeof self !== 'undefined' ? self : this);
