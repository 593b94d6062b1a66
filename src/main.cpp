// Maharajah: with no arguments, the UCI loop on stdin/stdout. With arguments, they
// form one command (e.g. `perft 6 <fen>`, `bench`), run before exiting.

#include <iostream>
#include <string>
#include <vector>

#include "protocol/uci.h"

int main(int argc, char* argv[]) {
    std::ios::sync_with_stdio(false);
    maharajah::untie_standard_streams();
    maharajah::Uci uci(std::cout);
    if (argc < 2) {
        uci.loop(std::cin);
        return 0;
    }
    return maharajah::run_command_line(uci, std::vector<std::string>(argv + 1, argv + argc), std::cerr);
}
