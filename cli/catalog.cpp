#include "cli/catalog.hpp"

#include "core/error.hpp"

namespace interflow::cli {

namespace {

template <class Registry>
std::function<const std::vector<ParamSpec>*(const std::string&)> params_of(const Registry& registry) {
  return [&registry](const std::string& name) { return &registry.find(name).params; };
}

}  // namespace

Catalog::Catalog(const Plugins& plugins) {
  commands_["static"] = add_static_command(app_, plugins);
  commands_["dynamic"] = add_dynamic_command(app_, plugins);
  commands_["schedule"] = add_schedule_command(app_, plugins);
  commands_["topo"] = add_topo_command(app_, plugins);
  commands_["packet"] = add_packet_command(app_, plugins);
  const auto topology = params_of(plugins.topologies), routing = params_of(plugins.routings);
  const auto pattern = params_of(plugins.patterns), app = params_of(plugins.apps);
  plugin_options_["static"] = {{"topology", topology}, {"routing", routing}, {"pattern", pattern}};
  plugin_options_["dynamic"] = {{"topology", topology},
                                {"routing", routing},
                                {"pattern", pattern},
                                {"app", app},
                                {"arrival", params_of(plugins.arrivals)},
                                {"policy", params_of(plugins.class_policies)}};
  plugin_options_["schedule"] = {{"topology", topology},
                                 {"routing", routing},
                                 {"job-app", app},
                                 {"policy", params_of(plugins.selections)},
                                 {"allocation", params_of(plugins.allocations)},
                                 {"mapping", params_of(plugins.mappings)},
                                 {"data-placement", params_of(plugins.placements)}};
  plugin_options_["topo"] = {{"spec", topology}};
  plugin_options_["packet"] = {{"topology", topology},
                               {"routing", routing},
                               {"pattern", pattern},
                               {"switch", params_of(plugins.switches)},
                               {"scheduler", params_of(plugins.output_schedulers)},
                               {"mix", params_of(plugins.traffic_mixes)}};
}

std::vector<std::string> Catalog::commands() const { return {"static", "dynamic", "schedule", "topo", "packet"}; }

std::vector<std::string> Catalog::options(const std::string& command) const {
  const auto it = commands_.find(command);
  return it == commands_.end() ? std::vector<std::string>{} : it->second.options->run_option_names();
}

std::string Catalog::check(const std::string& command, const std::string& option, const Json& value) const {
  const auto it = commands_.find(command);
  if (it == commands_.end()) return "no command " + command;
  return it->second.options->check_value(option, value);
}

const Catalog::Lookup* Catalog::lookup(const std::string& command, const std::string& option) const {
  const auto c = plugin_options_.find(command);
  if (c == plugin_options_.end()) return nullptr;
  const auto o = c->second.find(option);
  return o == c->second.end() ? nullptr : &o->second;
}

bool Catalog::takes_plugin(const std::string& command, const std::string& option) const {
  return lookup(command, option) != nullptr;
}

const std::vector<ParamSpec>* Catalog::plugin_params(const std::string& command, const std::string& option,
                                                     const std::string& plugin) const {
  const Lookup* l = lookup(command, option);
  return l ? (*l)(plugin) : nullptr;
}

}  // namespace interflow::cli
