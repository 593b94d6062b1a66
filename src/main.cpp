// Maharajah: with no arguments, the UCI loop on stdin/stdout. With arguments, they
// form one command (e.g. `perft 6 <fen>`, `bench`), run before exiting.

#include <iostream>
#include <string>

#include "protocol/uci.h"

int main(int argc, char* argv[]) {
    std::ios::sync_with_stdio(false);
    maharajah::Uci uci(std::cout);
    if (argc < 2) {
        uci.loop(std::cin);
        return 0;
    }
    std::string first = argv[1], rest;
    for (int i = 2; i < argc; ++i) rest += std::string(rest.empty() ? "" : " ") + argv[i];
    return maharajah::run_command_line(uci, first, rest, std::cerr);
}
