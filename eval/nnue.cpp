#include "eval/nnue.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/memory.h"
#include "eval/nnue_simd.h"

// The net built into the binary (generated from eval/nets at build time).
extern const unsigned char maharajah_builtin_net[];
extern const std::size_t maharajah_builtin_net_size;

namespace maharajah::nnue {

namespace {

constexpr char Magic[4] = {'M', 'H', 'N', 'N'};
// The payload of a net with `inputs` input rows (this engine's, or one bucket's worth).
constexpr std::size_t payload_size(std::size_t inputs) {
    return sizeof(std::int16_t) * (inputs * Hidden + Hidden + Buckets * 2 * Hidden) + sizeof(std::int32_t) * Buckets;
}
constexpr std::size_t MaxDescription = 1024;

std::uint64_t fnv1a(const unsigned char* data, std::size_t size) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001b3ULL;
    return h;
}

// Little-endian reads from a byte string with a cursor; false past the end.
struct Reader {
    const std::string& bytes;
    std::size_t at = 0;
    bool u32(std::uint32_t& v) {
        if (at + 4 > bytes.size()) return false;
        v = 0;
        for (int i = 0; i < 4; ++i) v |= std::uint32_t(std::uint8_t(bytes[at + i])) << (8 * i);
        at += 4;
        return true;
    }
    bool u64(std::uint64_t& v) {
        std::uint32_t lo, hi;
        if (!u32(lo) || !u32(hi)) return false;
        v = std::uint64_t(hi) << 32 | lo;
        return true;
    }
    template <typename T>
    void array(T* out, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i) {
            std::uint64_t v = 0;
            for (std::size_t b = 0; b < sizeof(T); ++b) v |= std::uint64_t(std::uint8_t(bytes[at + b])) << (8 * b);
            out[i] = T(v);
            at += sizeof(T);
        }
    }
};

std::string hex(std::uint64_t v) {
    std::ostringstream os;
    os << std::hex << v;
    return os.str();
}

struct Registry {
    LargePtr<Network> builtin = make_large<Network>();
    std::string builtin_error;
    Registry() {
        builtin_error = load(builtin_bytes(), *builtin);
        if (!builtin_error.empty()) *builtin = Network{};  // never used by a correct build (a test loads it)
    }
};

Registry& registry() {
    static Registry r;
    return r;
}

// out = in - removed rows + added rows, for one perspective whose king stays in bucket kb.
void apply(const Network& net, const std::int16_t* in, std::int16_t* out, const Delta& d, Color p, int kb) {
    const std::int16_t* rem[2];
    const std::int16_t* add[2];
    for (int i = 0; i < d.removed; ++i)
        rem[i] = net.feature_weights + feature(p, d.removed_piece[i], d.removed_square[i], kb) * Hidden;
    for (int i = 0; i < d.added; ++i)
        add[i] = net.feature_weights + feature(p, d.added_piece[i], d.added_square[i], kb) * Hidden;
    simd::update_rows(out, in, rem, d.removed, add, d.added, Hidden);
}

void refresh_perspective(const Position& pos, const Network& net, Accumulator& acc, Color p) {
    std::int16_t* out = acc.values[p];
    const int kb = king_bucket(p, pos.king_square(p));
    const std::int16_t* rows[SQUARE_NB];
    int count = 0;
    for (Bitboard b = pos.pieces(); b;) {
        Square s = pop_lsb(b);
        rows[count++] = net.feature_weights + feature(p, pos.piece_on(s), s, kb) * Hidden;
    }
    simd::update_rows(out, net.feature_bias, nullptr, 0, rows, count, Hidden);
    acc.computed[p] = true;
}

}  // namespace

std::string load(const std::string& bytes, Network& net) {
    Reader r{bytes};
    if (bytes.size() < 4 || std::memcmp(bytes.data(), Magic, 4) != 0) return "not a Maharajah net (no MHNN magic)";
    r.at = 4;
    std::uint32_t version, inputs, hidden, buckets, qa, qb, scale, description_size;
    std::uint64_t hash, payload;
    if (!r.u32(version) || !r.u32(inputs) || !r.u32(hidden) || !r.u32(buckets) || !r.u32(qa) || !r.u32(qb) ||
        !r.u32(scale) || !r.u64(hash) || !r.u64(payload) || !r.u32(description_size))
        return "truncated header";
    if (version != FormatVersion)
        return "format version " + std::to_string(version) + ", this engine reads " + std::to_string(FormatVersion);
    // A net without king buckets also loads into a bucketed engine: it is the bucketed
    // net whose buckets are all the same, and evaluates exactly as it did.
    const bool one_bucket = KingBuckets > 1 && inputs == std::uint32_t(FeaturesPerBucket);
    if ((inputs != Inputs && !one_bucket) || hidden != Hidden || buckets != Buckets || qa != QA || qb != QB ||
        scale != Scale)
        return "architecture " + std::to_string(inputs) + "x" + std::to_string(hidden) + " buckets " +
               std::to_string(buckets) + " QA " + std::to_string(qa) + " QB " + std::to_string(qb) + " scale " +
               std::to_string(scale) + ", this engine has " + std::to_string(Inputs) + "x" + std::to_string(Hidden) +
               " buckets " + std::to_string(Buckets) + " QA " + std::to_string(QA) + " QB " + std::to_string(QB) +
               " scale " + std::to_string(Scale);
    if (description_size > MaxDescription) return "description of " + std::to_string(description_size) + " bytes";
    const std::size_t payload_expected = payload_size(inputs);
    if (payload != payload_expected)
        return "payload of " + std::to_string(payload) + " bytes, expected " + std::to_string(payload_expected);
    const std::size_t expected = r.at + description_size + payload_expected;
    if (bytes.size() != expected)
        return (bytes.size() < expected ? "truncated: " : "trailing bytes: ") + std::to_string(bytes.size()) +
               " bytes, expected " + std::to_string(expected);
    std::string description = bytes.substr(r.at, description_size);
    r.at += description_size;
    const std::uint64_t actual = fnv1a(reinterpret_cast<const unsigned char*>(bytes.data()) + r.at, payload_expected);
    if (actual != hash) return "hash mismatch (header " + hex(hash) + ", content " + hex(actual) + ")";
    auto fresh = std::make_unique<Network>();
    r.array(fresh->feature_weights, std::size_t(inputs) * Hidden);
    for (std::size_t at = std::size_t(inputs) * Hidden; at < std::size_t(Inputs) * Hidden;
         at += std::size_t(inputs) * Hidden)
        std::memcpy(fresh->feature_weights + at, fresh->feature_weights, sizeof(std::int16_t) * inputs * Hidden);
    r.array(fresh->feature_bias, Hidden);
    r.array(&fresh->output_weights[0][0], std::size_t(Buckets) * 2 * Hidden);
    r.array(fresh->output_bias, Buckets);
    // The output layer multiplies a clipped activation (at most QA) by a weight in 16
    // bits: weights beyond +-127 could overflow there.
    for (int k = 0; k < Buckets; ++k)
        for (int i = 0; i < 2 * Hidden; ++i)
            if (std::abs(fresh->output_weights[k][i]) > 127) return "output weight out of range (beyond +-127)";
    fresh->hash = hash;
    fresh->description = description;
    net = *fresh;
    return {};
}

const Network& builtin() { return *registry().builtin; }

std::string builtin_bytes() {
    return std::string(reinterpret_cast<const char*>(maharajah_builtin_net), maharajah_builtin_net_size);
}

std::string load_file(const std::string& path, NetPtr& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot read '" + path + "'";
    in.seekg(0, std::ios::end);
    std::streamoff size = in.tellg();
    if (size < 0 || size > (std::streamoff(64) << 20)) return "'" + path + "' is not a net file (size)";
    in.seekg(0);
    std::string bytes(std::size_t(size), '\0');
    in.read(bytes.data(), size);
    if (!in) return "cannot read '" + path + "'";
    auto net = make_large<Network>();
    std::string error = load(bytes, *net);
    if (!error.empty()) return "'" + path + "': " + error;
    out = NetPtr(std::move(net));
    return {};
}

void refresh(const Position& pos, const Network& net, Accumulator& acc) {
    refresh_perspective(pos, net, acc, WHITE);
    refresh_perspective(pos, net, acc, BLACK);
}

bool simd_compiled() { return simd::Compiled; }
const char* simd_name() { return simd::Name; }

Value output(const Network& net, const Accumulator& acc, Color stm, int bucket, bool vectorised) {
    std::int64_t sum =
        simd::output_sum(acc.values[stm], acc.values[~stm], net.output_weights[bucket], Hidden, QA, vectorised);
    sum /= QA;
    sum += net.output_bias[bucket];
    std::int64_t v = sum * Scale / (QA * QB);
    return Value(std::clamp<std::int64_t>(v, VALUE_MATED_IN_MAX_PLY + 1, VALUE_MATE_IN_MAX_PLY - 1));
}

Value evaluate(const Position& pos, const Network& net) {
    Accumulator acc;
    refresh(pos, net, acc);
    return output(net, acc, pos.side_to_move(), bucket_of(popcount(pos.pieces())));
}

Delta delta_of(const Position& after, Move m) {
    Delta d;
    const Color us = ~after.side_to_move();
    const Square from = from_sq(m), to = to_sq(m);
    auto remove = [&](Piece pc, Square s) {
        d.removed_piece[d.removed] = pc;
        d.removed_square[d.removed++] = s;
    };
    auto add = [&](Piece pc, Square s) {
        d.added_piece[d.added] = pc;
        d.added_square[d.added++] = s;
    };
    if (is_castling(m)) {
        int cr = Position::castling_right_of(m);
        const Piece king = make_piece(us, KING), rook = make_piece(us, ROOK);
        remove(king, from);
        remove(rook, after.castling_rook_square(cr));
        add(king, to);
        add(rook, Position::castling_rook_to(cr));
        return d;
    }
    const Piece moved = is_promotion(m) ? make_piece(us, PAWN) : after.piece_on(to);
    remove(moved, from);
    add(after.piece_on(to), to);
    if (Piece captured = after.state()->captured) remove(captured, is_en_passant(m) ? Square(to - pawn_push(us)) : to);
    return d;
}

AccumulatorStack::AccumulatorStack() : entries_(MAX_PLY + 16), cache_(COLOR_NB * KingBuckets) {}

void AccumulatorStack::reset() {
    // A net loaded since (EvalFile) may sit at the old one's address: start afresh.
    for (CachedRefresh& c : cache_) c.net = nullptr;
    top_ = 0;
    entries_[0].acc.computed[WHITE] = entries_[0].acc.computed[BLACK] = false;
}

void AccumulatorStack::push(const Position& after, Move m) {
    Entry& e = entries_[++top_];
    e.delta = delta_of(after, m);
    e.acc.computed[WHITE] = e.acc.computed[BLACK] = false;
    if constexpr (KingBuckets > 1)
        for (Color c : {WHITE, BLACK}) e.king_bucket[c] = king_bucket(c, after.king_square(c));
}

void AccumulatorStack::push_null() {
    Entry& e = entries_[++top_];
    e.delta = Delta{};
    e.acc.computed[WHITE] = e.acc.computed[BLACK] = false;
    e.king_bucket[WHITE] = entries_[top_ - 1].king_bucket[WHITE];
    e.king_bucket[BLACK] = entries_[top_ - 1].king_bucket[BLACK];
}

const Accumulator& AccumulatorStack::update(const Position& pos, const Network& net) {
    Accumulator& top = entries_[top_].acc;
    const int men = popcount(pos.pieces());
    for (Color p : {WHITE, BLACK}) {
        if (top.computed[p]) continue;
        // A king that changed bucket on the way changed every feature of its side's
        // perspective: the incremental path reaches back only within one bucket.
        const int kb = king_bucket(p, pos.king_square(p));
        entries_[top_].king_bucket[p] = kb;
        int from = top_;
        while (from > 0 && !entries_[from].acc.computed[p] && entries_[from].king_bucket[p] == kb) --from;
        // Each step touches about four weight rows, a refresh one per man.
        if (!entries_[from].acc.computed[p] || entries_[from].king_bucket[p] != kb || (top_ - from) * 4 > men) {
            refresh_cached(pos, net, top, p, kb);
            continue;
        }
        for (int k = from + 1; k <= top_; ++k) {
            apply(net, entries_[k - 1].acc.values[p], entries_[k].acc.values[p], entries_[k].delta, p, kb);
            entries_[k].acc.computed[p] = true;
        }
    }
    return top;
}

void AccumulatorStack::refresh_cached(const Position& pos, const Network& net, Accumulator& acc, Color p, int kb) {
    CachedRefresh& c = cache_[p * KingBuckets + kb];
    if (c.net != &net) {  // nothing cached for this net: the empty board, all men to add
        std::memcpy(c.values, net.feature_bias, sizeof(c.values));
        for (auto& by_type : c.by_piece)
            for (Bitboard& b : by_type) b = 0;
        c.net = &net;
    }
    // At most every square's man leaves and another arrives.
    const std::int16_t* removed[SQUARE_NB];
    const std::int16_t* added[SQUARE_NB];
    int removed_count = 0, added_count = 0;
    for (Color col : {WHITE, BLACK})
        for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt) {
            const Bitboard now = pos.pieces(col, PieceType(pt)), then = c.by_piece[col][pt];
            if (now == then) continue;
            const Piece pc = make_piece(col, PieceType(pt));
            for (Bitboard gone = then & ~now; gone;)
                removed[removed_count++] = net.feature_weights + feature(p, pc, pop_lsb(gone), kb) * Hidden;
            for (Bitboard come = now & ~then; come;)
                added[added_count++] = net.feature_weights + feature(p, pc, pop_lsb(come), kb) * Hidden;
            c.by_piece[col][pt] = now;
        }
    simd::update_rows(c.values, c.values, removed, removed_count, added, added_count, Hidden);
    std::memcpy(acc.values[p], c.values, sizeof(c.values));
    acc.computed[p] = true;
}

Value AccumulatorStack::evaluate(const Position& pos, const Network& net) {
    const Accumulator& acc = update(pos, net);
    return output(net, acc, pos.side_to_move(), bucket_of(popcount(pos.pieces())));
}

}  // namespace maharajah::nnue
