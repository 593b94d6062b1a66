// The Maharajah play page. One WebAssembly module runs in a Web Worker
// (maharajah-worker.js, driven through MaharajahWorker of maharajah-api.js): its engine,
// so that a search never freezes the page, and the rules calls (legalMoves, status,
// fen, armies), answered by the same module (one heap), during a search at its next
// yield. The page keeps the game as a position string ("startpos" or "army W B" plus
// "moves ...") and redraws everything from fen() and status() after each move, so the
// engine's rules stay the only rules.
'use strict';
(function () {
  const STANDARD = { white: 'RNBQKBNR/PPPPPPPP', black: 'rnbqkbnr/pppppppp' };
  const GLYPH = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙', k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };
  const NAME = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn',
    M: 'Maharaja (queen+knight)', A: 'Archbishop (bishop+knight)', C: 'Chancellor (rook+knight)' };
  const FILES = 'abcdefgh';
  const $ = (id) => document.getElementById(id);

  const state = {
    ready: false,          // the engine answered uciok and readyok
    playing: false,        // a game was started
    over: false,           // checkmate, stalemate or a draw
    color: 'white',        // the person's colour
    base: 'startpos',      // the position string before "moves"
    moves: [],
    fen: '',
    status: '',
    engineThinking: false,
    selected: null,        // the square of the picked piece
    targets: [],           // its legal moves (UCI), from legalMoves
    busy: 0,               // rules calls or a game start in flight (the display may lag)
    game: 0,               // bumped by every start, so late answers of an old game are dropped
    thinking: null,        // the promise of the running search
    startSide: 'white',    // who moved first (for numbering the move list)
    choosing: false,       // the promotion box is open
    checks: { white: null, black: null },
    error: null,
  };

  // ---- the engine and the rules, both in the worker ----
  const RULES = new Set(['legalMoves', 'status', 'fen', 'armyCheck', 'armySuggest']);
  const waiters = [];
  const workerStarted = MaharajahWorker.start('maharajah-worker.js');
  let worker = null;
  workerStarted.then((w) => {
    worker = w;
    worker.onLine = onLine;
    initEngine(w);
  }, (e) => fail('the engine failed to load: ' + e.message));

  // A rules call: a Promise of {ok, code, error, text}.
  async function rules(name, ...args) {
    if (!RULES.has(name)) throw new Error('not a rules call: ' + name);
    return (await workerStarted).call(name, ...args);
  }

  const sent = [];   // the last lines sent to the engine, for the test and the console
  function send(line) {
    sent.push(line);
    sent.splice(0, sent.length - 50);
    worker.send(line);
  }

  // Sends a line and resolves with the first engine line starting with prefix
  // (registered before sending so that a fast answer is not missed).
  function ask(line, prefix) {
    const answer = new Promise((resolve) => waiters.push({ prefix, resolve }));
    send(line);
    return answer;
  }

  function onLine(line) {
    const i = waiters.findIndex((w) => line.startsWith(w.prefix));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(line);
    if (line.startsWith('info ') && line.includes(' score ')) showInfo(line);
  }

  async function initEngine(w) {
    $('engine-name').textContent = w.engineVersion;
    await ask('uci', 'uciok');
    await ask('isready', 'readyok');
    state.ready = true;
    $('start').disabled = false;
    await Promise.all([checkArmy('white'), checkArmy('black')]);
    render();
  }

  function fail(text) {
    state.error = text;
    $('message').textContent = text;
  }

  // ---- armies ----
  function armyText(color) { return $(color + '-army').value.replace(/\s+/g, ''); }

  async function checkArmy(color) {
    const text = armyText(color);
    const r = await rules('armyCheck', color, text);
    const check = { text, ok: r.ok, answer: r.ok ? r.text : (r.text || r.error) };
    if (armyText(color) !== text) return check;   // typed on meanwhile: show the newer one
    state.checks[color] = check;
    const el = $(color + '-check');
    el.textContent = check.answer;
    el.className = 'check ' + (r.ok ? 'ok' : 'bad');
    return check;
  }

  async function suggestArmy(color) {
    const seed = Math.floor(Math.random() * 2 ** 32);
    const r = await rules('armySuggest', color, seed);
    if (!r.ok) { fail('army suggest: ' + r.text); return; }
    $(color + '-army').value = r.text;
    await checkArmy(color);
  }

  for (const color of ['white', 'black']) {
    let timer = null;
    $(color + '-army').addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => checkArmy(color), 200);
    });
    $(color + '-suggest').addEventListener('click', () => suggestArmy(color));
    $(color + '-standard').addEventListener('click', () => {
      $(color + '-army').value = STANDARD[color];
      checkArmy(color);
    });
  }

  // ---- the game ----
  function position() {
    return state.base + (state.moves.length ? ' moves ' + state.moves.join(' ') : '');
  }

  function sideToMove() { return state.fen.split(' ')[1] === 'b' ? 'black' : 'white'; }

  // base: a position string to start from instead of the armies (a hook for tests, e.g.
  // "fen 8/4P3/8/8/8/8/8/k6K w - - 0 1 Vv -").
  async function start(base) {
    if (!state.ready) return;
    $('message').textContent = '';
    if (!base) {
      const [w, b] = await Promise.all([checkArmy('white'), checkArmy('black')]);
      if (!w.ok || !b.ok) { fail('Fix the armies first.'); return; }
      base = w.text === STANDARD.white && b.text === STANDARD.black ? 'startpos' : `army ${w.text} ${b.text}`;
    }
    const game = ++state.game;
    state.busy++;   // not idle until the new game stands (and the engine made its first move)
    try {
      await newGame(game, base);
    } finally {
      state.busy--;
    }
  }

  async function newGame(game, base) {
    if (state.thinking) { send('stop'); await state.thinking; }
    if (game !== state.game) return;
    const level = $('level').value;
    send('setoption name UCI_LimitStrength value ' + (level === 'full' ? 'false' : 'true'));
    if (level !== 'full') send('setoption name UCI_Elo value ' + level);
    send('ucinewgame');
    await ask('isready', 'readyok');
    if (game !== state.game) return;
    Object.assign(state, { playing: true, over: false, color: $('color').value, base, moves: [], selected: null, targets: [] });
    $('engine-info').textContent = '';
    buildBoard();
    await refresh();
    state.startSide = sideToMove();
    if (!state.over && sideToMove() !== state.color) await engineMove();
  }

  // Reads the board and the status of the current position from the rules.
  async function refresh() {
    const pos = position();
    state.busy++;
    const [f, s] = await Promise.all([rules('fen', pos), rules('status', pos)]);
    state.busy--;
    if (pos !== position()) return;
    if (!f.ok || !s.ok) {
      fail('rules: ' + (f.ok ? s.text : f.text));
      state.over = true;
    } else {
      state.fen = f.text;
      state.status = s.text;
      state.over = /^(checkmate|stalemate|draw)/.test(s.text);
    }
    render();
  }

  async function engineMove() {
    const game = state.game;
    state.engineThinking = true;
    render();
    send('position ' + position());
    state.thinking = ask('go movetime ' + $('movetime').value, 'bestmove');
    const line = await state.thinking;
    state.thinking = null;
    state.engineThinking = false;
    if (game !== state.game) return;
    const move = line.split(/\s+/)[1];
    if (move && move !== '(none)' && move !== '0000') state.moves.push(move);
    await refresh();
  }

  async function playMove(move) {
    state.moves.push(move);
    state.selected = null;
    state.targets = [];
    await refresh();
    if (!state.over) await engineMove();
  }

  function myTurn() {
    return state.playing && !state.over && !state.engineThinking && !state.busy && !state.choosing &&
      sideToMove() === state.color;
  }

  async function onSquareClick(square) {
    if (!myTurn()) return;
    const moves = state.targets.filter((m) => m.slice(2, 4) === square);
    if (state.selected && moves.length) {
      const move = moves.length === 1 ? moves[0] : await choosePromotion(moves);
      if (move) await playMove(move);
      return;
    }
    const piece = boardMap()[square];
    const own = piece && (piece === piece.toUpperCase()) === (state.color === 'white');
    if (!own || square === state.selected) {
      state.selected = null;
      state.targets = [];
      render();
      return;
    }
    state.selected = square;
    state.targets = [];
    render();
    state.busy++;
    const r = await rules('legalMoves', position(), square);
    state.busy--;
    if (state.selected !== square) return;
    state.targets = r.ok ? r.text.split(' ').filter(Boolean) : [];
    render();
  }

  // Offers the promotion pieces that legalMoves listed for this target square.
  function choosePromotion(moves) {
    const box = $('promotion');
    const choices = $('promotion-choices');
    choices.textContent = '';
    return new Promise((resolve) => {
      state.choosing = true;
      const done = (move) => { box.hidden = true; state.choosing = false; resolve(move); };
      const white = state.color === 'white';
      // Strongest first: the queen, the compound pieces, then the rest.
      const rank = (move) => 'qmcarbn'.indexOf(move.slice(4));
      for (const move of [...moves].sort((x, y) => rank(x) - rank(y))) {
        const letter = move.slice(4).toUpperCase();
        const button = document.createElement('button');
        button.type = 'button';
        button.dataset.promotion = move.slice(4);
        button.title = NAME[letter] || letter;
        button.appendChild(pieceElement(white ? letter : letter.toLowerCase()));
        button.addEventListener('click', () => done(move));
        choices.appendChild(button);
      }
      $('promotion-cancel').onclick = () => done(null);
      box.hidden = false;
    });
  }

  // ---- drawing ----
  function boardMap() {
    const map = {};
    const ranks = (state.fen.split(' ')[0] || '').split('/');
    ranks.forEach((row, i) => {
      let file = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) file += Number(ch);
        else map[FILES[file++] + (8 - i)] = ch;
      }
    });
    return map;
  }

  function pieceElement(letter) {
    const el = document.createElement('span');
    const white = letter === letter.toUpperCase();
    el.className = 'piece ' + (white ? 'white' : 'black');
    if (GLYPH[letter]) el.textContent = GLYPH[letter];
    else {
      // The compound pieces have no Unicode glyph: a lettered disc.
      el.classList.add('compound');
      el.textContent = letter.toUpperCase();
    }
    el.title = (white ? 'white ' : 'black ') + (NAME[letter.toUpperCase()] || letter);
    return el;
  }

  // The squares are made once per game (White or Black at the bottom).
  function buildBoard() {
    const board = $('board');
    board.textContent = '';
    const flip = state.color === 'black';
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const file = flip ? 7 - col : col;
        const rank = flip ? row + 1 : 8 - row;
        const sq = document.createElement('div');
        sq.className = 'square ' + ((file + rank) % 2 ? 'dark' : 'light');   // a1 (0 + 1) is dark
        sq.dataset.square = FILES[file] + rank;
        sq.addEventListener('click', () => onSquareClick(sq.dataset.square));
        if (col === 0) sq.appendChild(coord('rank', rank));
        if (row === 7) sq.appendChild(coord('file', FILES[file]));
        board.appendChild(sq);
      }
    }
  }

  function coord(kind, text) {
    const el = document.createElement('span');
    el.className = 'coord ' + kind;
    el.textContent = text;
    return el;
  }

  function render() {
    const map = boardMap();
    const last = state.moves[state.moves.length - 1] || '';
    const targets = new Set(state.targets.map((m) => m.slice(2, 4)));
    for (const sq of document.querySelectorAll('#board .square')) {
      const name = sq.dataset.square;
      const piece = map[name] || '';
      if (sq.dataset.piece !== piece || (piece && !sq.querySelector('.piece'))) {
        sq.querySelector('.piece')?.remove();
        if (piece) sq.appendChild(pieceElement(piece));
        sq.dataset.piece = piece;
      }
      sq.classList.toggle('selected', name === state.selected);
      sq.classList.toggle('target', targets.has(name));
      sq.classList.toggle('capture', targets.has(name) && !!piece);
      sq.classList.toggle('last', last.slice(0, 2) === name || last.slice(2, 4) === name);
    }
    renderText();
  }

  function renderText() {
    const side = sideToMove();
    const turn = $('turn');
    turn.dataset.turn = state.playing ? side : '';
    if (!state.playing) turn.textContent = state.ready ? 'Pick the armies and start a game.' : 'Loading the engine…';
    else if (state.over) turn.textContent = 'Game over';
    else if (state.engineThinking) turn.textContent = `${cap(side)} to move: the engine is thinking…`;
    else turn.textContent = `${cap(side)} to move${side === state.color ? ' (you)' : ''}`;

    const status = $('status');
    status.dataset.status = state.status;
    status.textContent = state.playing ? describeStatus(state.status, side) : '';

    const list = $('moves');
    list.textContent = '';
    const moves = state.startSide === 'black' && state.moves.length ? ['…', ...state.moves] : state.moves;
    for (let i = 0; i < moves.length; i += 2) {
      const li = document.createElement('li');
      for (const m of moves.slice(i, i + 2)) {
        const span = document.createElement('span');
        if (m !== '…') span.className = 'move';
        span.textContent = m;
        li.appendChild(span);
      }
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
  }

  function describeStatus(status, side) {
    if (status === 'checkmate') return `Checkmate: ${side === 'white' ? 'Black' : 'White'} wins`;
    if (status === 'stalemate') return 'Stalemate: a draw';
    if (status.startsWith('draw')) return 'Draw (' + status.slice(5) + ')';
    if (status.startsWith('ongoing claim')) return 'A draw may be claimed (' + status.slice(14) + ')';
    return status === 'ongoing' ? '' : status;
  }

  function showInfo(line) {
    const t = line.split(/\s+/);
    const at = (key) => t[t.indexOf(key) + 1];
    const score = at('score') === 'mate' ? 'mate ' + t[t.indexOf('score') + 2] : (Number(t[t.indexOf('score') + 2]) / 100).toFixed(2);
    $('engine-info').textContent = `engine: depth ${at('depth')}, score ${score} (its view)`;
  }

  const cap = (s) => s[0].toUpperCase() + s.slice(1);

  $('start').addEventListener('click', () => start());
  buildBoard();
  renderText();

  // For the automated test (scripts/wasm/page_test.py) and the console.
  window.maharajahPage = {
    get ready() { return state.ready; },
    get playing() { return state.playing; },
    get over() { return state.over; },
    get position() { return position(); },
    get fen() { return state.fen; },
    get status() { return state.status; },
    get moves() { return state.moves.slice(); },
    get color() { return state.color; },
    get game() { return state.game; },
    get engineThinking() { return state.engineThinking; },
    get selected() { return state.selected; },
    get targets() { return state.targets.slice(); },
    // Nothing in flight: the display shows the current position.
    get idle() { return !state.busy && !state.engineThinking; },
    get choosing() { return state.choosing; },
    get checks() { return JSON.parse(JSON.stringify(state.checks)); },
    get error() { return state.error; },
    get sent() { return sent.slice(); },
    rules,
    start,
  };
})();
