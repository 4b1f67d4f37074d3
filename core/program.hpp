#pragma once
// Task programs: what each task of an application does, in order (Navaridas et al. 2019, §3.3.2-3.3.3).
//
//   send(dst, bytes, tag)   inject a message and wait until its last bit has left (transfer end)
//   isend(dst, bytes, tag)  inject a message and go on; a later wait() waits for its transfer end
//   recv(src, bytes, tag)   wait until the matching message has been delivered (it may already be:
//                           messages that arrive early are kept as pending notifications)
//   irecv(src, bytes, tag)  post a receive and go on; a later wait() waits for its delivery
//   wait()                  wait for every isend and irecv of the task still outstanding
//   compute(seconds)        compute; scaled by the run's CPU factor
//   delay(seconds)          idle for a fixed time (not scaled; e.g. the gaps of an injection rate)
//
// Matching follows MPI's non-overtaking rule: the k-th receive at task d from task s with a given tag
// and size matches the k-th such send of s to d. Peers are task ids of the same application.
// Storage is one structure of arrays over all operations, grouped per task (CSR).
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/types.hpp"

namespace interflow {

enum class OpKind : std::uint8_t { Send, Isend, Recv, Irecv, Wait, Compute, Delay };

inline constexpr std::uint8_t kAppClass = 0xFF;  // an operation's class: the application's own

inline bool is_send(OpKind k) { return k == OpKind::Send || k == OpKind::Isend; }
inline bool is_receive(OpKind k) { return k == OpKind::Recv || k == OpKind::Irecv; }
// "send", "isend", "recv", "irecv", "wait", "compute", "delay".
std::string_view name_of(OpKind k);

struct Program {
  std::uint32_t tasks = 0;
  std::vector<std::uint64_t> offsets{0};  // per task, into the operation arrays (size tasks + 1)
  std::vector<OpKind> kind;
  std::vector<std::uint32_t> peer;  // send/recv: the other task
  std::vector<std::uint32_t> tag;   // send/recv
  std::vector<double> value;        // send/recv: bytes; compute/delay: seconds
  std::vector<std::uint8_t> klass;  // send: service class, or kAppClass for the application's class
  // Optional (empty, or one per operation): the phase each operation belongs to (the Markov-chain
  // application's step), for per-phase times in the results.
  std::vector<std::uint32_t> label;

  std::size_t size() const { return kind.size(); }
};

// Collects operations task by task in any interleaving and lays them out per task (stable: each
// task's operations keep the order they were added in).
class ProgramBuilder {
 public:
  explicit ProgramBuilder(std::uint32_t tasks) : tasks_(tasks) {}

  std::uint32_t tasks() const { return tasks_; }
  void send(std::uint32_t task, std::uint32_t dst, double bytes, std::uint32_t tag, std::uint8_t klass = kAppClass) {
    add(task, OpKind::Send, dst, tag, bytes, klass);
  }
  void isend(std::uint32_t task, std::uint32_t dst, double bytes, std::uint32_t tag, std::uint8_t klass = kAppClass) {
    add(task, OpKind::Isend, dst, tag, bytes, klass);
  }
  void recv(std::uint32_t task, std::uint32_t src, double bytes, std::uint32_t tag) {
    add(task, OpKind::Recv, src, tag, bytes, kAppClass);
  }
  void irecv(std::uint32_t task, std::uint32_t src, double bytes, std::uint32_t tag) {
    add(task, OpKind::Irecv, src, tag, bytes, kAppClass);
  }
  void wait(std::uint32_t task) { add(task, OpKind::Wait, 0, 0, 0, kAppClass); }
  void compute(std::uint32_t task, double seconds) {
    if (seconds > 0) add(task, OpKind::Compute, 0, 0, seconds, kAppClass);
  }
  void delay(std::uint32_t task, double seconds) {
    if (seconds > 0) add(task, OpKind::Delay, 0, 0, seconds, kAppClass);
  }
  // Operations added from now on belong to phase `label` (Program::label; none before the first call).
  void set_label(std::uint32_t label) {
    if (!labelled_) ops_.label.assign(task_.size(), 0);
    labelled_ = true;
    label_ = label;
  }
  // A fresh tag no other call to next_tag() of this builder returned (collectives take one each so
  // that their messages never match another operation's).
  std::uint32_t next_tag() { return next_tag_++; }

  std::size_t size() const { return task_.size(); }
  Program build();  // throws InputError for a peer or task beyond the task count

 private:
  void add(std::uint32_t task, OpKind kind, std::uint32_t peer, std::uint32_t tag, double value, std::uint8_t klass);

  std::uint32_t tasks_;
  std::uint32_t next_tag_ = 1u << 30;  // user tags stay below 2^30
  bool labelled_ = false;
  std::uint32_t label_ = 0;
  std::vector<std::uint32_t> task_;
  Program ops_;  // in the order added
};

}  // namespace interflow
