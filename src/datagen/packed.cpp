#include "datagen/packed.h"

#include <algorithm>
#include <bit>

namespace maharajah::datagen {

namespace {

constexpr int UnmovedPawn = 15;

void put_bits(Record& r, int& bit, unsigned value, int width) {
    for (int i = 0; i < width; ++i, ++bit)
        if (value >> i & 1) r[8 + bit / 8] |= std::uint8_t(1u << (bit % 8));
}

unsigned get_bits(const Record& r, int& bit, int width) {
    unsigned v = 0;
    for (int i = 0; i < width; ++i, ++bit) v |= unsigned(r[8 + bit / 8] >> (bit % 8) & 1) << i;
    return v;
}

void put16(Record& r, int at, std::uint16_t v) {
    r[at] = std::uint8_t(v & 0xFF);
    r[at + 1] = std::uint8_t(v >> 8);
}
std::uint16_t get16(const Record& r, int at) { return std::uint16_t(r[at] | r[at + 1] << 8); }

}  // namespace

Record pack(const Position& pos, Value score, Move best, Result result) {
    Record r{};
    Bitboard occ = pos.pieces();
    for (int i = 0; i < 8; ++i) r[i] = std::uint8_t(occ >> (8 * i));
    int bit = 0;
    for (Bitboard b = occ; b;) {
        Square s = pop_lsb(b);
        Piece pc = pos.piece_on(s);
        unsigned code = pc;
        if (type_of(pc) == PAWN && (pos.double_step_pawns() & square_bb(s))) code = color_of(pc) * 16 + UnmovedPawn;
        put_bits(r, bit, code, 5);
    }
    r[48] = std::uint8_t((pos.side_to_move() == BLACK) | pos.rules(WHITE).variant << 1 | pos.rules(BLACK).variant << 2 |
                         pos.castling_rights() << 4);
    r[49] = std::uint8_t(pos.ep_square() == SQ_NONE ? 64 : pos.ep_square());
    r[50] = std::uint8_t(std::min(pos.rule50_count(), 255));
    r[51] = result;
    put16(r, 52, std::uint16_t(std::int16_t(std::clamp(score, -32000, 32000))));
    put16(r, 54, best);
    put16(r, 56, std::uint16_t(std::min(pos.fullmove_number(), 65535)));
    return r;
}

Unpacked unpack(const Record& r) {
    Unpacked u;
    Bitboard occ = 0;
    for (int i = 0; i < 8; ++i) occ |= Bitboard(r[i]) << (8 * i);
    char board[64] = {};
    Bitboard unmoved = 0;
    int bit = 0;
    for (Bitboard b = occ; b;) {
        Square s = pop_lsb(b);
        unsigned code = get_bits(r, bit, 5);
        unsigned type = code & 15;
        if (type == UnmovedPawn) {
            type = PAWN;
            unmoved |= square_bb(s);
        }
        if (type < PAWN || type > CHANCELLOR) return {};
        const char letters[] = " PNBRQKMAC";
        char ch = letters[type];
        board[s] = code >> 4 ? char(ch - 'A' + 'a') : ch;
    }
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            char ch = board[rank * 8 + file];
            if (!ch) {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            fen += ch;
        }
        if (empty) fen += char('0' + empty);
        if (rank) fen += '/';
    }
    fen += r[48] & 1 ? " b " : " w ";
    int castling = r[48] >> 4;
    std::string cr;
    if (castling & WHITE_OO) cr += 'K';
    if (castling & WHITE_OOO) cr += 'Q';
    if (castling & BLACK_OO) cr += 'k';
    if (castling & BLACK_OOO) cr += 'q';
    fen += cr.empty() ? "-" : cr;
    if (r[49] > 64) return {};
    fen += r[49] == 64 ? std::string(" -") : " " + square_name(Square(r[49]));
    fen += " " + std::to_string(r[50]) + " " + std::to_string(std::max<int>(1, get16(r, 56)));
    std::string sides;
    if (r[48] & 2) sides += 'V';
    if (r[48] & 4) sides += 'v';
    fen += " " + (sides.empty() ? std::string("-") : sides) + " ";
    // A classic side's king square makes the list exact for that side (the FEN rules).
    for (int c = 0; c < 2; ++c)
        if (!(r[48] & (2 << c)))
            for (int s = 0; s < 64; ++s)
                if (board[s] == (c ? 'k' : 'K')) unmoved |= square_bb(Square(s));
    std::string pawns;
    for (Bitboard b = unmoved; b;) pawns += square_name(pop_lsb(b));
    fen += pawns.empty() ? "-" : pawns;
    u.fen = fen;
    u.score = std::int16_t(get16(r, 52));
    u.best = Move(get16(r, 54));
    if (r[51] > WHITE_WINS) return {};
    u.result = Result(r[51]);
    return u;
}

}  // namespace maharajah::datagen
