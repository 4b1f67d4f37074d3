#include "core/program.hpp"

#include <string>

#include "core/error.hpp"

namespace interflow {

std::string_view name_of(OpKind k) {
  switch (k) {
    case OpKind::Send:
      return "send";
    case OpKind::Isend:
      return "isend";
    case OpKind::Recv:
      return "recv";
    case OpKind::Irecv:
      return "irecv";
    case OpKind::Wait:
      return "wait";
    case OpKind::Compute:
      return "compute";
    case OpKind::Delay:
      return "delay";
  }
  return "?";
}

void ProgramBuilder::add(std::uint32_t task, OpKind kind, std::uint32_t peer, std::uint32_t tag, double value,
                         std::uint8_t klass) {
  task_.push_back(task);
  ops_.kind.push_back(kind);
  ops_.peer.push_back(peer);
  ops_.tag.push_back(tag);
  ops_.value.push_back(value);
  ops_.klass.push_back(klass);
  if (labelled_) ops_.label.push_back(label_);
}

Program ProgramBuilder::build() {
  Program p;
  p.tasks = tasks_;
  const std::size_t n = task_.size();
  p.offsets.assign(tasks_ + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const OpKind k = ops_.kind[i];
    const bool message = is_send(k) || is_receive(k);
    if (task_[i] >= tasks_ || (message && ops_.peer[i] >= tasks_))
      throw InputError("program: operation " + std::to_string(i) + " names task " +
                       std::to_string(task_[i] >= tasks_ ? task_[i] : ops_.peer[i]) + " of an application of " +
                       std::to_string(tasks_) + " tasks");
    if (message && !(ops_.value[i] >= 0))
      throw InputError("program: operation " + std::to_string(i) + " has a message size that is not >= 0");
    ++p.offsets[task_[i] + 1];
  }
  for (std::uint32_t t = 0; t < tasks_; ++t) p.offsets[t + 1] += p.offsets[t];
  std::vector<std::uint64_t> cursor(p.offsets.begin(), p.offsets.end() - 1);
  p.kind.resize(n);
  p.peer.resize(n);
  p.tag.resize(n);
  p.value.resize(n);
  p.klass.resize(n);
  if (labelled_) p.label.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t j = cursor[task_[i]]++;
    p.kind[j] = ops_.kind[i];
    p.peer[j] = ops_.peer[i];
    p.tag[j] = ops_.tag[i];
    p.value[j] = ops_.value[i];
    p.klass[j] = ops_.klass[i];
    if (labelled_) p.label[j] = ops_.label[i];
  }
  task_ = {};
  ops_ = Program();
  return p;
}

}  // namespace interflow
