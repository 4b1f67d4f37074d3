#pragma once
// "Did you mean": the valid name nearest to a mistyped one, for messages that refuse a key or a name.
#include <string>
#include <vector>

namespace interflow {

// The candidate with the smallest edit distance (insertions, deletions, substitutions and swaps of
// neighbours, '-' and '_' counted equal) to `name`, if that distance is at most a third of the
// longer name's length (at least 1, at most 3); "" when none is that close.
std::string nearest_name(const std::string& name, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" or "" : for appending to a message.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace interflow
