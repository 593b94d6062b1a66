// The UCI options, declared once in one table: `uci` lists them from it and `setoption`
// checks and applies values through it (docs/protocol.md, "UCI options", lists the same
// table; a test compares the two).

#include <algorithm>
#include <cctype>
#include <sstream>

#include "core/number.h"
#include "eval/nnue.h"
#include "protocol/uci.h"
#include "search/params.h"

namespace maharajah {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

const char* const TypeName[] = {"spin", "check", "combo", "string", "button"};

}  // namespace

std::string option_line(const UciOption& o) {
    std::string line = "option name " + o.name + " type " + TypeName[o.type];
    if (o.type == UciOption::BUTTON) return line;
    line += " default " + o.default_value;
    if (o.type == UciOption::SPIN) line += " min " + std::to_string(o.min) + " max " + std::to_string(o.max);
    for (const std::string& v : o.vars) line += " var " + v;
    return line;
}

void Uci::declare_options() {
    using O = UciOption;
    auto spin = [](std::string name, long long def, long long lo, long long hi, O::Apply apply) {
        return O{std::move(name), O::SPIN, std::to_string(def), lo, hi, {}, false, std::move(apply)};
    };
    auto check = [](std::string name, O::Apply apply) {
        return O{std::move(name), O::CHECK, "false", 0, 0, {}, false, std::move(apply)};
    };
    auto button = [](std::string name, O::Apply apply) {
        return O{std::move(name), O::BUTTON, "", 0, 0, {}, false, std::move(apply)};
    };
    auto combo = [](std::string name, std::string def, std::vector<std::string> vars, O::Apply apply,
                    std::function<bool(const std::string&)> accepts = nullptr) {
        return O{std::move(name), O::COMBO, std::move(def), 0, 0, std::move(vars), false, std::move(apply), accepts};
    };
    auto string_option = [](std::string name, std::string def, bool developer, O::Apply apply) {
        return O{std::move(name), O::STRING, std::move(def), 0, 0, {}, developer, std::move(apply)};
    };
    auto set_flag = [](bool& flag) { return [&flag](const std::string&, long long n) { return flag = n, ""; }; };
    options_ = {
        spin("Hash", 16, 1, 65536,
             [this](const std::string& text, long long n) -> std::string {
                 try {
                     engine_.resize_hash(std::size_t(n));
                 } catch (const std::bad_alloc&) {
                     engine_.resize_hash(16);
                     return "not enough memory for Hash " + clip(text) + " MB; using 16";
                 }
                 return {};
             }),
        spin("Threads", 1, 1, search::SingleThreaded ? 1 : 256,
             [this](const std::string&, long long n) { return engine_.set_threads(int(n)), ""; }),
        spin("MultiPV", 1, 1, 256, [this](const std::string&, long long n) { return settings_.multipv = int(n), ""; }),
        // Pondering is driven by "go ponder"; the option only announces it.
        check("Ponder", [](const std::string&, long long) { return ""; }),
        spin("Move Overhead", 10, 0, 5000,
             [this](const std::string&, long long n) { return settings_.move_overhead_ms = n, ""; }),
        button("Clear Hash", [this](const std::string&, long long) { return engine_.clear(), ""; }),
        check("UCI_ShowWDL", set_flag(show_wdl_)),
        // Read by the next "position"; the current one keeps its mode.
        check("UCI_Chess960", set_flag(chess960_)),
        check("UCI_LimitStrength", set_flag(limit_strength_)),
        spin("UCI_Elo", search::SkillMaxElo, search::SkillMinElo, search::SkillMaxElo,
             [this](const std::string&, long long n) { return uci_elo_ = int(n), ""; }),
        spin("Skill Level", 20, 0, 20, [this](const std::string&, long long n) { return skill_level_ = int(n), ""; }),
        spin("Skill Seed", 0, 0, 2147483647,
             [this](const std::string&, long long n) { return skill_seed_ = std::uint64_t(n), ""; }),
        combo("UCI_Variant", "chess", {"chess", "maharajah", "maharajah39", "maharajah39-cv", "maharajah39-vc"},
              [this](const std::string& text, long long) {
                  variant_ = text;
                  send("info string variant " + variant_);
                  return "";
              }),
        combo(
            "EvalMode", eval::mode_name(eval::Options{}.mode), {"auto", "nnue", "hybrid", "classical", "material"},
            [this](const std::string& text, long long) {
                return eval::parse_mode(lower(text), settings_.eval.mode), "";
            },
            // Any case, and "full", the older name of classical.
            [](const std::string& text) {
                eval::Mode mode;
                return eval::parse_mode(lower(text), mode);
            }),
        string_option("EvalFile", nnue::BuiltinName, false,
                      [this](const std::string& text, long long) -> std::string {
                          // A net file replaces this engine's net only when it loads completely; a
                          // search still running (another handle's, or a pondering one stopped
                          // before setoption) keeps the net it started with.
                          if (text.empty() || text == nnue::BuiltinName) {
                              settings_.eval.net.reset();
                              net_name_ = nnue::BuiltinName;
                          } else {
                              nnue::NetPtr net;
                              if (std::string e = nnue::load_file(text, net); !e.empty())
                                  return "EvalFile " + clip(e, 200) + "; keeping " + net_name_;
                              settings_.eval.net = std::move(net);
                              net_name_ = text;
                          }
                          std::ostringstream hash;
                          hash << std::hex << settings_.eval.network().hash;
                          send("info string EvalFile " + net_name_ + " (hash " + hash.str() + ")");
                          return {};
                      }),
        // Developer options work whenever they are set, but are listed only on request,
        // so that a GUI's option dialog shows what players use.
        string_option("Ablate", "none", true,
                      [this](const std::string& text, long long) -> std::string {
                          // A comma-separated list of search techniques to switch off, or "none".
                          std::uint32_t disabled = 0;
                          std::istringstream list(lower(text));
                          for (std::string item; std::getline(list, item, ',');) {
                              if (item == "none" || item.empty()) continue;
                              auto it = std::find(search::TechniqueName.begin(), search::TechniqueName.end(), item);
                              if (it == search::TechniqueName.end()) {
                                  std::string known;
                                  for (const char* t : search::TechniqueName)
                                      known += std::string(known.empty() ? "" : " ") + t;
                                  return "Ablate: unknown technique '" + clip(item) + "' (known: " + known + ")";
                              }
                              disabled |= 1u << (it - search::TechniqueName.begin());
                          }
                          settings_.disabled = disabled;
                          return {};
                      }),
    };
    // A tuning build lists the search parameters, which an SPSA tuner sets; `uci` shows
    // a parameter's current value as its default.
    if (search::Tunable)
        for (const search::ParamInfo& p : search::params())
            options_.push_back(
                spin(p.name, p.value, p.min, p.max,
                     [this, i = options_.size(), name = std::string(p.name)](const std::string&, long long n) {
                         search::set_param(name, int(n));
                         options_[i].default_value = std::to_string(n);
                         return "";
                     }));
}

void Uci::cmd_uci() {
    std::string text = "id name " + std::string(EngineName) + ' ' + engine_version() + "\nid author " + EngineAuthor;
    for (const UciOption& o : options_)
        if (!o.developer || show_dev_options_) text += '\n' + option_line(o);
    send(text + "\nuciok");
}

void Uci::cmd_setoption(std::istringstream& is) {
    // setoption name <id with spaces> [value <x with spaces>]
    std::string token, name, value;
    is >> token;
    if (token != "name") {
        error("setoption: expected 'name'");
        return;
    }
    while (is >> token && token != "value") name += (name.empty() ? "" : " ") + token;
    while (is >> token) value += (value.empty() ? "" : " ") + token;
    auto o = std::find_if(options_.begin(), options_.end(),
                          [id = lower(name)](const UciOption& opt) { return lower(opt.name) == id; });
    if (o == options_.end()) return error("setoption: unknown option '" + clip(name) + "'");
    long long number = 0;
    if (o->type == UciOption::SPIN) {
        if (std::string e = parse_number(value, o->min, o->max, number); !e.empty())
            return error("setoption: " + clip(name) + " " + e + ", got '" + clip(value) + "'");
    } else if (o->type == UciOption::CHECK) {
        if (lower(value) != "true" && lower(value) != "false")
            return error("setoption: " + clip(name) + " must be true or false, got '" + clip(value) + "'");
        number = lower(value) == "true";
    } else if (o->type == UciOption::COMBO) {
        const bool known =
            o->accepts ? o->accepts(value) : std::find(o->vars.begin(), o->vars.end(), value) != o->vars.end();
        if (!known) {
            std::string choices;
            for (std::size_t i = 0; i < o->vars.size(); ++i)
                choices += (i == 0 ? "" : i + 1 == o->vars.size() ? " or " : ", ") + o->vars[i];
            return error("setoption: " + o->name + " must be " + choices + ", got '" + clip(value) + "'");
        }
    }
    if (std::string e = o->apply(value, number); !e.empty()) error("setoption: " + e);
}

}  // namespace maharajah
