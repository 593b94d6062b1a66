// Type declarations of the Maharajah chess engine's JavaScript interface (the npm
// package's ESM and CommonJS entries; the same classes as the classic scripts
// maharajah-api.js and maharajah-worker.js).

/** A side: the words or 0 (white) / 1 (black). */
export type Color = 'white' | 'black' | 0 | 1;

/** Why a call failed: the C library's result codes as words. */
export type ErrorKind = 'argument' | 'position' | 'square' | 'army' | 'command' | 'memory' | 'quit';

/**
 * The answer of every rules call. `text` is the answer (moves, status, FEN, army
 * report) when `ok`, else what is wrong.
 */
export interface RulesResult {
  ok: boolean;
  /** 0 on success; negative: the C library's MH_ERR_* code. */
  code: number;
  /** null on success. */
  error: ErrorKind | string | null;
  text: string;
}

/**
 * A position as the rules calls take it: "startpos", "fen <FEN>" or
 * "army <white> <black>", each optionally followed by " moves <m1> <m2> ...".
 */
export type PositionString = string;

/** A score of an info line: centipawns or moves to mate, from the engine's side. */
export interface Score {
  unit: 'cp' | 'mate';
  value: number;
  /** Present when the score is only a bound (an aspiration window failed). */
  bound?: 'lower' | 'upper';
}

/** An "info" line, parsed. Each field is present only when the line has it. */
export interface InfoLine {
  type: 'info';
  depth?: number;
  seldepth?: number;
  multipv?: number;
  score?: Score;
  nodes?: number;
  nps?: number;
  hashfull?: number;
  time?: number;
  tbhits?: number;
  currmove?: string;
  currmovenumber?: number;
  /** The principal variation, UCI moves. */
  pv?: string[];
  /** The text of "info string ...". */
  string?: string;
}

/** A "bestmove" line, parsed; `move` is "(none)" when there was no legal move. */
export interface BestMoveLine {
  type: 'bestmove';
  move: string;
  ponder?: string;
}

/** Any other line: its first word and the rest. */
export interface OtherLine {
  type: string;
  text: string;
}

export type ParsedLine = InfoLine | BestMoveLine | OtherLine;

/** Called with every line the engine prints (no newline). */
export type LineListener = (line: string) => void;

/** Options of Maharajah.load(). The package's entries fill in what they can. */
export interface LoadOptions {
  /** The MaharajahModule function of maharajah.js (emscripten's loader). */
  factory?: (settings: object) => Promise<unknown>;
  /** Where the loader finds maharajah.wasm: given the file name, returns its URL or path. */
  locateFile?: (file: string, prefix: string) => string;
  /** The wasm's bytes, when the caller has them already. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Receives the module's stderr text (none by default). */
  printErr?: (text: string) => void;
}

/** One engine of a loaded module. Its lines go to `onLine`. */
export declare class Engine {
  private constructor();
  onLine: LineListener | null;
  /**
   * Sends one protocol line (UCI, referee and army commands). Resolves with the
   * result code (0 ok, 1 quit, -5 the engine answered with an error line) when the
   * line has run; "go" resolves after its bestmove. "stop", "ponderhit" and
   * "isready" sent during a search are taken at its next yield (every 40 ms).
   */
  send(line: string): Promise<number>;
  /** Stops a running search and frees the engine; no line is delivered afterwards. */
  destroy(): Promise<void>;
}

/** A loaded WebAssembly module: engines and the synchronous rules calls. */
export declare class Maharajah {
  private constructor();
  /** Loads the module (maharajah.js and maharajah.wasm, the net built in). */
  static load(options?: LoadOptions): Promise<Maharajah>;
  /** Parses an engine output line (no module needed). */
  static parseLine(line: string): ParsedLine;
  /** The names of the rules calls (the methods below that return a RulesResult). */
  static readonly RULES_CALLS: readonly RulesCallName[];

  /** A new engine (its own position, options and hash) in this module. */
  createEngine(onLine?: LineListener): Engine;
  /** The C interface's version, e.g. "1.0.0". */
  readonly libraryVersion: string;
  /** The engine's name and version, e.g. "Maharajah 0.3-1a2b3c4d". */
  readonly engineVersion: string;

  /** The legal moves (UCI, space-separated) of the position, or of one square's piece. */
  legalMoves(position: PositionString, square?: string): RulesResult;
  /** "ongoing", "checkmate", "stalemate", "draw <reason>" ... */
  status(position: PositionString): RulesResult;
  /** The position's FEN (the engine's dialect). */
  fen(position: PositionString): RulesResult;
  /** The result when `color`'s flag falls in the position (a win, or a draw by material). */
  flag(position: PositionString, color: Color): RulesResult;
  /** Checks an army ("RNBQKBNR/PPPPPPPP" from the side's own back rank). */
  armyCheck(color: Color, army: string): RulesResult;
  /** A random legal army for the side; seed: a number below 2^53 or a BigInt below 2^64. */
  armySuggest(color: Color, seed?: number | bigint): RulesResult;
}

/** The rules calls by name. */
export type RulesCallName = 'legalMoves' | 'status' | 'fen' | 'flag' | 'armyCheck' | 'armySuggest';

/** Options of MaharajahWorker.start(). */
export interface WorkerOptions {
  /** A Worker already created (of maharajah-worker.js), instead of the URL. */
  worker?: Worker;
}

/**
 * A module in a Web Worker (maharajah-worker.js, beside maharajah.js, maharajah-api.js
 * and maharajah.wasm): one engine and the rules calls, answered by the same module.
 */
export declare class MaharajahWorker {
  private constructor();
  /** Starts the worker; resolves once the module is loaded. */
  static start(url?: string | URL, options?: WorkerOptions): Promise<MaharajahWorker>;
  onLine: LineListener | null;
  readonly libraryVersion: string;
  readonly engineVersion: string;
  /** Sends one protocol line to the worker's engine. */
  send(line: string): void;
  /** A rules call by name. */
  call(name: RulesCallName, ...args: unknown[]): Promise<RulesResult>;
  legalMoves(position: PositionString, square?: string): Promise<RulesResult>;
  status(position: PositionString): Promise<RulesResult>;
  fen(position: PositionString): Promise<RulesResult>;
  flag(position: PositionString, color: Color): Promise<RulesResult>;
  armyCheck(color: Color, army: string): Promise<RulesResult>;
  armySuggest(color: Color, seed?: number | bigint): Promise<RulesResult>;
  /** Ends the worker; pending calls reject. */
  terminate(): void;
}

export default Maharajah;
