#pragma once
// The game file written by `maharajah datagen`: every game as a start record followed
// by 4 bytes per ply, so a file of games is about 5 bytes per position and files simply
// concatenate. All fields little-endian (docs/training.md, "The game file"):
//
//   bytes  0- 1  magic "MG"
//   byte   2     format version (2)
//   byte   3     start kind (StartKind)
//   byte   4     result for White: 0 loss, 1 draw, 2 win
//   byte   5     termination (Termination)
//   bytes  6- 7  number of plies N
//   bytes  8-15  the run's seed
//   bytes 16-19  the game's index in its run (games of a run are written in index order)
//   bytes 20-21  length L of the start FEN
//   L bytes      start FEN in the engine's dialect (Chess960 starts read with chess960 on)
//   N x 4 bytes  per ply: the move played (16-bit engine encoding) and the search score
//                before it (int16, centipawns from the mover's view; mates as +-(32000 -
//                plies); 32002 when the search gave no exact score)
//
// `expand` turns games into the 64-byte position records of packed.h, one per ply, with
// the fields a trainer filters on in bytes 58-63 (ExpandedFlag, ply, plies to the end).

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/types.h"

namespace maharajah::datagen {

enum StartKind : std::uint8_t { START_STANDARD, START_CHESS960, START_SUGGESTED, START_RANDOM_ARMIES, START_KIND_NB };
enum Termination : std::uint8_t {
    END_CHECKMATE,
    END_STALEMATE,
    END_DRAW_RULE,
    END_WIN_ADJUDICATED,
    END_DRAW_ADJUDICATED,
    END_PLY_CAP
};

inline constexpr std::uint8_t GameFormatVersion = 2;

struct GamePly {
    Move move = MOVE_NONE;
    Value score = VALUE_NONE;  // before the move, from the mover's view
};

struct GameRecord {
    StartKind kind = START_STANDARD;
    std::uint8_t result = 1;  // for White: 0 loss, 1 draw, 2 win
    Termination termination = END_DRAW_RULE;
    std::uint64_t seed = 0;
    std::uint32_t index = 0;
    std::string fen;
    std::vector<GamePly> plies;

    bool chess960() const { return kind == START_CHESS960; }
};

std::string encode_game(const GameRecord& game);

// Reads the next game. Returns true with `game` filled; false at the end of the stream
// (error empty) or on a malformed or truncated game (error says which; `game` undefined).
bool read_game(std::istream& in, GameRecord& game, std::string& error);

// Bytes 58-63 of an expanded record.
enum ExpandedFlag : std::uint8_t {
    EXP_IN_CHECK = 1,      // the side to move is in check
    EXP_CAPTURE = 2,       // the move played captures (en passant included)
    EXP_PROMOTION = 4,     // the move played promotes
    EXP_ARMY = 8,          // an army game (suggested or random armies)
    EXP_CHESS960 = 16,     // a Chess960 game (the record keeps no castling rights)
    EXP_ADJUDICATED = 32,  // the result was adjudicated
    EXP_NO_SCORE = 64,     // the search gave no exact score (the score field is 0)
};
// byte 58 flags, byte 59 start kind, bytes 60-61 ply within the stored game, bytes 62-63
// plies from here to the game's end.

// Writes a 64-byte record per stored position of every game in `in` to `out`; the
// moves are replayed and checked. Returns the positions written, or sets `error`
// (naming the game) and stops.
std::uint64_t expand_games(std::istream& in, std::ostream& out, std::string& error);

}  // namespace maharajah::datagen
