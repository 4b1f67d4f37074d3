// The HPC skeletons after Mubarak et al. 2019 (lammps, nekbone, nn3d) and the background jobs (uniform_bg,
// permutation_bg): message counts and sizes from closed forms, the injection schedule on a star, and
// the permutation property of the rotating background. (That they run to completion is checked with
// every other kernel in applications.cpp.)
#include <doctest/doctest.h>

#include "tests/support/approx.hpp"

#include <cmath>
#include <map>
#include <set>

#include "core/error.hpp"
#include "tests/support/app_support.hpp"
#include "tests/support/run_support.hpp"

using namespace interflow;
using namespace interflow::workloads;

namespace {

struct Sends {
  std::uint64_t count = 0;
  std::map<double, std::uint64_t> by_size;
};

Sends sends(const Program& p) {
  Sends s;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (is_send(p.kind[i])) {
      ++s.count;
      ++s.by_size[p.value[i]];
    }
  return s;
}

}  // namespace

TEST_CASE("hpc skeletons: lammps sends 12 halo messages per task and step plus its allreduces") {
  // 8 tasks on a 2x2x2 grid: 3 dimensions x 2 directions x (forward + reverse) = 12 messages per task
  // and step; a recursive-doubling allreduce among 8 tasks is 8 x 3 messages.
  const Application app = test::make_app("lammps:tasks=8,iters=2,allreduces=2,alg=recdoubling");
  const Sends s = sends(app.program);
  CHECK(s.by_size.at(65536) == 8 * 6 * 2);
  CHECK(s.by_size.at(32768) == 8 * 6 * 2);
  CHECK(s.by_size.at(8) == 2 * 2 * 8 * 3);
  CHECK(s.count == 8 * 12 * 2 + 2 * 2 * 24);
  // Allreduces every third step only: 9 steps give 3 groups.
  const Sends t = sends(test::make_app("lammps:tasks=27,iters=9,allreduce_every=3,allreduces=1,alg=ring").program);
  CHECK(t.by_size.at(65536) == 27 * 6 * 9);
  // A ring allreduce: 2(n-1) steps of n messages (of bytes / n each).
  CHECK(t.count - 27 * 12 * 9 == 3 * 2 * 26 * 27);
}

TEST_CASE("hpc skeletons: nekbone exchanges with 26 or 6 neighbours and nn3d with 6") {
  const Sends s = sends(test::make_app("nekbone:tasks=27,iters=2,allreduces=0").program);
  CHECK(s.by_size.at(16384) == 27 * 6 * 2);
  CHECK(s.by_size.at(1024) == 27 * 12 * 2);
  CHECK(s.by_size.at(64) == 27 * 8 * 2);
  const Sends faces = sends(test::make_app("nekbone:tasks=27,iters=1,neighbours=6,allreduces=2,alg=ring").program);
  CHECK(faces.by_size.at(16384) == 27 * 6);
  CHECK(faces.count - 27 * 6 == 2 * 2 * 26 * 27);
  const Sends nn = sends(test::make_app("nn3d:tasks=64,iters=3").program);
  CHECK(nn.count == 64 * 6 * 3);
  CHECK(nn.by_size.at(131072) == nn.count);
  CHECK(sends(test::make_app("nn3d:tasks=27,iters=1,neighbours=26,bytes=65536").program).by_size.at(65536) == 27 * 26);
  // A side of 1 has no neighbours along it: a 4x4x1 grid is a 2-D torus of 4 neighbours.
  CHECK(sends(test::make_app("nn3d:tasks=16,dims=4x4x1,iters=1").program).count == 16 * 4);
}

TEST_CASE("background jobs: the injection rate sets the gap between messages") {
  // Two tasks on the 10 Gbps star, 1 MB messages at half the link rate: one message every
  // 8e6 / 5e9 = 1.6 ms, each taking 0.8 ms + 200 ns, so the third ends at 2 x 1.6 ms + 0.8 ms + 200 ns.
  auto t = test::build_topology(test::star_topology());
  auto routing = test::build_routing("bfs", *t);
  const Application app = test::make_app("uniform_bg:tasks=2,bytes=1e6,rate=0.5,messages=3", 8);
  const drivers::RunResult r = test::run_apps(t->network(), *routing, {app}, {});
  REQUIRE(r.blocked.empty());
  CHECK(r.apps[0].messages == 6);
  CHECK(r.apps[0].runtime_s() == approx(2 * 1.6e-3 + 0.8e-3 + 200e-9).epsilon(1e-9));
  // duration instead of a count: ceil(10 ms / 1.6 ms) = 7 messages per task.
  CHECK(sends(test::make_app("uniform_bg:tasks=2,bytes=1e6,rate=0.5,duration=0.01", 8).program).count == 14);
  CHECK_THROWS_AS(test::make_app("uniform_bg:tasks=2,rate=0"), InputError);
  CHECK_THROWS_AS(test::make_app("uniform_bg:tasks=1"), InputError);
  CHECK_THROWS_AS(test::make_app("permutation_bg:tasks=4,bytes=1e6,switch_bytes=1e5"), InputError);
}

TEST_CASE("background jobs: each round of the rotating permutation sends to distinct destinations") {
  // 3 messages per destination, 4 rounds: recover each message's slot from the delays before it.
  const Application app = test::make_app("permutation_bg:tasks=16,bytes=1000,switch_bytes=3000,messages=12,rate=0.5");
  const Program& p = app.program;
  const double gap = 1000 * 8 / (0.5 * 10e9);
  std::map<std::uint64_t, std::map<std::uint32_t, std::uint32_t>> round_dst;  // round -> sender -> destination
  std::map<std::uint64_t, std::uint32_t> in_round;
  for (std::uint32_t task = 0; task < p.tasks; ++task) {
    double time = 0;
    for (std::uint64_t i = p.offsets[task]; i < p.offsets[task + 1]; ++i) {
      if (p.kind[i] == OpKind::Delay) time += p.value[i];
      if (p.kind[i] != OpKind::Isend) continue;
      const auto slot = static_cast<std::uint64_t>(std::llround(time / gap));
      const std::uint64_t round = slot / 3;
      CHECK(p.peer[i] != task);
      const auto [it, fresh] = round_dst[round].emplace(task, p.peer[i]);
      CHECK(it->second == p.peer[i]);  // one destination per sender and round
      ++in_round[round];
    }
  }
  CHECK(round_dst.size() == 4);
  for (const auto& [round, dst] : round_dst) {
    std::set<std::uint32_t> receivers;
    for (const auto& [sender, d] : dst) receivers.insert(d);
    CHECK(receivers.size() == dst.size());  // a permutation: no receiver twice in a round
    CHECK(in_round[round] == 3 * dst.size());
  }
}
