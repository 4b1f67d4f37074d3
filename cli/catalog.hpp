#pragma once
// The experiments layer's view of the subcommands (experiments/experiment.hpp CommandCatalog): their
// run-defining options, checked by the very OptionTable checks a run applies, and which options hold
// plugin specs, answered from the registries.
#include <map>
#include <memory>

#include "cli/commands.hpp"
#include "experiments/experiment.hpp"

namespace interflow::cli {

class Catalog : public experiments::CommandCatalog {
 public:
  explicit Catalog(const Plugins& plugins);

  std::vector<std::string> commands() const override;
  std::vector<std::string> options(const std::string& command) const override;
  std::string check(const std::string& command, const std::string& option, const Json& value) const override;
  bool takes_plugin(const std::string& command, const std::string& option) const override;
  const std::vector<ParamSpec>* plugin_params(const std::string& command, const std::string& option,
                                              const std::string& plugin) const override;

 private:
  using Lookup = std::function<const std::vector<ParamSpec>*(const std::string&)>;
  const Lookup* lookup(const std::string& command, const std::string& option) const;

  CLI::App app_;  // one instance of every subcommand, whose option tables do the checks
  std::map<std::string, Command> commands_;
  std::map<std::string, std::map<std::string, Lookup>> plugin_options_;  // command -> option -> params
};

}  // namespace interflow::cli
