// Maharajah: with no arguments, the UCI loop on stdin/stdout. With arguments, they
// form one command (e.g. `perft 6 <fen>`, `bench`), run before exiting.

#include <iostream>
#include <string>
#include <vector>

#include "datagen/datagen.h"
#include "protocol/uci.h"

int main(int argc, char* argv[]) {
    std::ios::sync_with_stdio(false);
    maharajah::untie_standard_streams();
    maharajah::Uci uci(std::cout);
    if (argc < 2) {
        uci.loop(std::cin);
        return 0;
    }
    if (std::string(argv[1]) == "datagen") {
        maharajah::datagen::Config config;
        std::string error = maharajah::datagen::parse_config(std::vector<std::string>(argv + 2, argv + argc), config);
        if (!error.empty()) {
            std::cerr << "error: " << error << "\n" << maharajah::datagen::Usage << std::endl;
            return 1;
        }
        return maharajah::datagen::run(config, std::cerr);
    }
    if (std::string(argv[1]) == "expand")
        return maharajah::datagen::expand(std::vector<std::string>(argv + 2, argv + argc), std::cout, std::cerr);
    return maharajah::run_command_line(uci, std::vector<std::string>(argv + 1, argv + argc), std::cerr);
}
