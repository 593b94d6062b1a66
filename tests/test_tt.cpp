// The transposition table's replacement rule for an entry of the same position: the new
// result replaces the stored one unless the stored one is more than four plies deeper
// (PV nodes count two plies more); exact bounds and entries of an older search are
// always replaced; a save without a move keeps the stored move.

#include <catch2/catch.hpp>

#include "search/tt.h"

using namespace maharajah;
using namespace maharajah::search;

namespace {

constexpr Key kKey = 0x9E3779B97F4A7C15ULL;

struct Stored {
    Value value;
    int depth;
    Bound bound;
    Move move;
};

// A table holding one entry for kKey: depth `depth`, value 100, lower bound, non-PV.
struct Table {
    TranspositionTable tt;
    TTEntry* entry = nullptr;

    explicit Table(int depth) {
        tt.resize(1);
        tt.new_search();
        bool found = true;
        entry = tt.probe(kKey, found);
        REQUIRE_FALSE(found);
        entry->save(kKey, 100, false, BOUND_LOWER, depth, Move(0x1234), 7, tt.generation());
    }

    // Saves a second result for the same position as the search does: probe, then save.
    void save(Value v, bool pv, Bound b, int depth, Move m = Move(0x0777)) {
        bool found = false;
        TTEntry* e = tt.probe(kKey, found);
        REQUIRE(found);
        REQUIRE(e == entry);
        e->save(kKey, v, pv, b, depth, m, 7, tt.generation());
    }

    Stored stored() const { return {entry->value(), entry->depth(), entry->bound(), entry->move()}; }
};

}  // namespace

TEST_CASE("TT: a same-position result replaces the stored one unless that is over four plies deeper", "[tt]") {
    SECTION("shallower by at most four plies: replaced") {
        for (int d : {9, 8, 7}) {
            Table t(10);
            t.save(-50, false, BOUND_UPPER, d);
            CHECK(t.stored().value == -50);
            CHECK(t.stored().depth == d);
            CHECK(t.stored().bound == BOUND_UPPER);
        }
    }
    SECTION("shallower by more than four plies (non-PV): kept") {
        for (int d : {6, 5, 1, 0}) {
            Table t(10);
            t.save(-50, false, BOUND_UPPER, d);
            CHECK(t.stored().value == 100);
            CHECK(t.stored().depth == 10);
            CHECK(t.stored().bound == BOUND_LOWER);
        }
    }
    SECTION("a PV node counts two plies more") {
        Table t(10);
        t.save(-50, true, BOUND_UPPER, 5);  // 5 + 2 > 10 - 4
        CHECK(t.stored().value == -50);
        CHECK(t.stored().depth == 5);
        CHECK(t.entry->is_pv());
        Table u(10);
        u.save(-50, true, BOUND_UPPER, 4);  // 4 + 2 = 10 - 4: kept
        CHECK(u.stored().value == 100);
        CHECK(u.stored().depth == 10);
    }
    SECTION("equal depth: replaced") {
        Table t(10);
        t.save(-50, false, BOUND_UPPER, 10);
        CHECK(t.stored().value == -50);
        CHECK(t.stored().bound == BOUND_UPPER);
    }
    SECTION("deeper: replaced") {
        Table t(10);
        t.save(250, false, BOUND_LOWER, 14);
        CHECK(t.stored().value == 250);
        CHECK(t.stored().depth == 14);
    }
    SECTION("an exact bound replaces even a much deeper entry") {
        Table t(20);
        t.save(33, false, BOUND_EXACT, 1);
        CHECK(t.stored().value == 33);
        CHECK(t.stored().depth == 1);
        CHECK(t.stored().bound == BOUND_EXACT);
    }
    SECTION("an entry of an older search is replaced at any depth") {
        Table t(20);
        t.tt.new_search();
        // Saved without a probe in between, as a probe would refresh the generation.
        t.entry->save(kKey, -9, false, BOUND_UPPER, 1, Move(0x0777), 7, t.tt.generation());
        CHECK(t.stored().value == -9);
        CHECK(t.stored().depth == 1);
    }
    SECTION("a save without a move keeps the stored move; a kept entry takes a new move") {
        Table t(10);
        t.save(-50, false, BOUND_UPPER, 9, Move(0));
        CHECK(t.stored().value == -50);
        CHECK(t.stored().move == Move(0x1234));
        Table u(10);
        u.save(-50, false, BOUND_UPPER, 2, Move(0x0777));
        CHECK(u.stored().value == 100);
        CHECK(u.stored().move == Move(0x0777));
    }
}

TEST_CASE("TT: another position's entry in the slot is replaced", "[tt]") {
    Table t(30);
    const Key other = kKey ^ (Key(0xABCD) << 48);  // same cluster, different key16
    t.entry->save(other, 5, false, BOUND_UPPER, 0, Move(0), 7, t.tt.generation());
    CHECK(t.entry->value() == 5);
    CHECK(t.entry->depth() == 0);
    bool found = true;
    t.tt.probe(kKey, found);
    CHECK_FALSE(found);
    t.tt.probe(other, found);
    CHECK(found);
}

TEST_CASE("TT: mate scores come back relative to the node, unless the fifty-move rule comes first", "[tt]") {
    // A mate found 3 plies below the root, 7 plies from that node (mate_in(10) at the root).
    const Value stored = value_to_tt(mate_in(10), 3);
    REQUIRE(stored == mate_in(7));
    // Read at another node 5 plies deep: mate in 7 from there, 12 from the root.
    CHECK(value_from_tt(stored, 5, 0) == mate_in(12));
    // The mated position may stand at counter 100: 93 + 7 still mates.
    CHECK(value_from_tt(stored, 5, 93) == mate_in(12));
    // From 94 on the counter reaches 100 before the mate: winning, no sure mate.
    for (int rule50 : {94, 99, 100}) {
        INFO(rule50);
        CHECK(value_from_tt(stored, 5, rule50) == VALUE_MATE_IN_MAX_PLY - 1);
    }
    // The same for the side that gets mated.
    const Value mated = value_to_tt(mated_in(10), 3);
    REQUIRE(mated == mated_in(7));
    CHECK(value_from_tt(mated, 5, 93) == mated_in(12));
    CHECK(value_from_tt(mated, 5, 94) == VALUE_MATED_IN_MAX_PLY + 1);
    // A long mate: 60 plies from the node leaves room for a counter up to 40.
    CHECK(value_from_tt(value_to_tt(mate_in(64), 4), 0, 40) == mate_in(60));
    CHECK(value_from_tt(value_to_tt(mate_in(64), 4), 0, 41) == VALUE_MATE_IN_MAX_PLY - 1);
    // Other scores are untouched by ply and counter alike.
    for (Value v : {Value(0), Value(-250), Value(1234), VALUE_MATE_IN_MAX_PLY - 1, VALUE_MATED_IN_MAX_PLY + 1})
        for (int rule50 : {0, 99}) {
            INFO(v << " at " << rule50);
            CHECK(value_from_tt(value_to_tt(v, 7), 7, rule50) == v);
        }
    CHECK(value_from_tt(VALUE_NONE, 7, 99) == VALUE_NONE);  // an entry with only an evaluation
}
