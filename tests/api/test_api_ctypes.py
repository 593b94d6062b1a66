#!/usr/bin/env python3
"""Drives libmaharajah from Python ctypes as an app written in a language without C
callbacks on foreign threads would: a queued engine handle polled with
mh_engine_read_line from the Python thread, a game of engine moves checked by the
direct rules calls, SAN for the moves, and the game written as PGN and read back.

Usage: test_api_ctypes.py <path to libmaharajah.so>   (ctest passes the built one)
"""
import ctypes
import sys

MH_OK, MH_TIMEOUT, MH_ERR_BUFFER, MH_ERR_NOTATION, MH_NO_FLAG = 0, 2, -8, -7, -1
MH_STATUS = ["ongoing", "checkmate", "stalemate", "draw insufficient", "draw fivefold", "draw seventyfive"]


class GameState(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("claim", ctypes.c_int), ("side_to_move", ctypes.c_int),
                ("in_check", ctypes.c_int)]


class Move(ctypes.Structure):
    _fields_ = [("uci", ctypes.c_char * 8), ("san", ctypes.c_char * 16), ("rook_from", ctypes.c_char * 3),
                ("rook_to", ctypes.c_char * 3), ("flags", ctypes.c_uint)]


def load(path):
    lib = ctypes.CDLL(path)
    lib.mh_engine_create_queued.restype = ctypes.c_void_p
    lib.mh_engine_send.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    lib.mh_engine_read_line.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
    lib.mh_engine_destroy.argtypes = [ctypes.c_void_p]
    lib.mh_last_error.restype = ctypes.c_char_p
    lib.mh_errstr.restype = ctypes.c_char_p
    lib.mh_library_version.restype = ctypes.c_char_p
    lib.mh_free.argtypes = [ctypes.c_void_p]
    lib.mh_free_moves.argtypes = [ctypes.c_void_p]
    for name in ("mh_to_san", "mh_from_san"):
        getattr(lib, name).argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.mh_pgn.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.mh_pgn_read.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.mh_fen.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.mh_game_state_of.argtypes = [ctypes.c_char_p, ctypes.POINTER(GameState)]
    lib.mh_move_list.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.POINTER(Move)), ctypes.POINTER(ctypes.c_int)]
    return lib


def text_call(lib, fn, *args):
    """Calls a `char** out` function; returns (code, answer or None)."""
    out = ctypes.c_void_p()
    code = fn(*args, ctypes.byref(out))
    answer = None
    if out.value:
        answer = ctypes.string_at(out.value).decode()
        lib.mh_free(out)
    return code, answer


def read_until(lib, engine, prefix, timeout_ms=60000):
    buf = ctypes.create_string_buffer(4096)
    while True:
        code = lib.mh_engine_read_line(engine, timeout_ms, buf, len(buf))
        assert code == MH_OK, f"read_line: {lib.mh_errstr(code).decode()}"
        line = buf.value.decode()
        if line.startswith(prefix):
            return line


def main():
    lib = load(sys.argv[1])
    assert lib.mh_library_version().decode() == "1.1.0"
    engines = [lib.mh_engine_create_queued(), lib.mh_engine_create_queued()]
    assert all(engines)
    buf = ctypes.create_string_buffer(64)
    assert lib.mh_engine_read_line(engines[0], 0, buf, len(buf)) == MH_TIMEOUT

    start = "army RNBCKBNR/PPPPPPPP/3P4 RNBQKBNR/PPPPPPPP"
    moves = []
    while len(moves) < 30:
        position = start + (" moves " + " ".join(moves) if moves else "")
        state = GameState()
        assert lib.mh_game_state_of(position.encode(), ctypes.byref(state)) == MH_OK
        if MH_STATUS[state.status] != "ongoing":
            break
        assert state.side_to_move == len(moves) % 2
        engine = engines[len(moves) % 2]
        assert lib.mh_engine_send(engine, f"position {position}".encode()) == MH_OK
        assert lib.mh_engine_send(engine, b"go nodes 1500") == MH_OK
        best = read_until(lib, engine, "bestmove ").split()[1]
        # The move is legal: it is in the move list, with its SAN.
        array, count = ctypes.POINTER(Move)(), ctypes.c_int()
        assert lib.mh_move_list(position.encode(), ctypes.byref(array), ctypes.byref(count)) == MH_OK
        listed = {array[i].uci.decode(): array[i].san.decode() for i in range(count.value)}
        lib.mh_free_moves(array)
        assert best in listed, (best, position)
        code, san = text_call(lib, lib.mh_to_san, position.encode(), best.encode())
        assert code == MH_OK and san == listed[best]
        moves.append(best)
    assert len(moves) >= 10

    # The whole game in SAN and back.
    code, san_line = text_call(lib, lib.mh_to_san, start.encode(), " ".join(moves).encode())
    assert code == MH_OK
    code, uci_line = text_call(lib, lib.mh_from_san, start.encode(), san_line.encode())
    assert code == MH_OK and uci_line.split() == moves
    # PGN out and in: the same final position.
    game = f"{start} moves {' '.join(moves)}"
    code, pgn = text_call(lib, lib.mh_pgn, game.encode(), MH_NO_FLAG, b'[White "Python"] [Black "ctypes"]')
    assert code == MH_OK and '[White "Python"]' in pgn and '[Variant "maharajah39-vc"]' in pgn
    code, read_back = text_call(lib, lib.mh_pgn_read, pgn.encode())
    assert code == MH_OK
    assert text_call(lib, lib.mh_fen, read_back.encode())[1] == text_call(lib, lib.mh_fen, game.encode())[1]
    # An error: no answer, the message apart.
    code, answer = text_call(lib, lib.mh_from_san, b"startpos", b"e4 e5 Ke3")
    assert code == MH_ERR_NOTATION and answer is None
    assert b"'Ke3' (move 3 of the list)" in lib.mh_last_error()
    for e in engines:
        lib.mh_engine_destroy(e)
    print(f"ctypes: a game of {len(moves)} plies through mh_engine_read_line: {san_line[:60]}...")


if __name__ == "__main__":
    main()
