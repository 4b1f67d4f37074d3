#pragma once
// TOML values as typed JSON and back, for experiment files and config.toml: strings, integers,
// floating-point numbers, booleans and arrays of them (tables only at the places the format names).
// Every value keeps its TOML type, so a run's configuration hashes and echoes the same way whether
// it came from an experiment file, a config.toml or the command line.
#include <nlohmann/json.hpp>
#include <string>
#include <toml++/toml.h>
#include <vector>

namespace interflow::experiments {

using Json = nlohmann::ordered_json;

// "<file>:<line>" of a node, for messages.
std::string where(const std::string& file, const toml::node& node);

// A scalar or an array of scalars (arrays may nest) as JSON; InputError "<where>: expected ..." for
// a table, a date or a time.
Json to_json(const toml::node& node, const std::string& where);

// A JSON scalar or array as TOML, inserted into `table` under `key`. Unsigned numbers above the
// largest TOML integer are written as strings (TOML integers are signed 64-bit).
void put_toml(toml::table& table, const std::string& key, const Json& value);

// A JSON value as the texts a command-line option takes: a scalar is one text, an array one per
// element (numbers in the shortest form that reads back the same).
std::vector<std::string> option_texts(const Json& value);

// Reads a TOML file; InputError "<file>:<line>:<column>: <what toml++ says>" when it does not parse,
// or naming `what` when it cannot be read.
toml::table parse_toml_file(const std::string& file, const std::string& what);

}  // namespace interflow::experiments
