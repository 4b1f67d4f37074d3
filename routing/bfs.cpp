// Generic single shortest-path routing (fewest links) for any topology, on the per-destination
// distance tables of routing/destination_search.hpp: each flow walks from its source, always to a
// neighbour one hop closer.
#include <memory>

#include "core/random.hpp"
#include "routing/destination_search.hpp"
#include "routing/registry.hpp"

namespace interflow::routing {

namespace {

class BfsRouting : public DestinationSearchRouting {
 public:
  explicit BfsRouting(bool random_ties) : random_ties_(random_ties) {}

  // Follows decreasing distance from the flow's source to its target.
  void route_flow(const Network& net, const FlowToRoute& f, SearchScratch& s, PathSink& sink) const override {
    VertexId at = f.source;
    Rng rng(random_ties_ ? derive_seed(f.seed, Stream::Routing, f.flow) : 0);
    while (at != f.target) {
      const std::uint32_t want = s.dist[at] - 1;
      auto closer = [&](LinkId l) { return usable(net, s, l, f.target, want) && s.dist[net.target(l)] == want; };
      std::uint32_t candidates = 0;
      LinkId chosen = kNone;
      for (LinkId l = net.out_begin(at); l < net.out_end(at); ++l)
        if (closer(l) && candidates++ == 0) chosen = l;
      if (candidates == 0) {  // only possible if a link is down in one direction but not the other
        sink.drop_flow();
        return;
      }
      if (random_ties_ && candidates > 1) {
        std::uint64_t pick = rng.below(candidates);
        for (LinkId l = net.out_begin(at);; ++l)
          if (closer(l) && pick-- == 0) {
            chosen = l;
            break;
          }
      }
      sink.push(chosen);
      at = net.target(chosen);
    }
    if (append_last_hop(net, f, sink)) sink.commit(1.0);
  }

 private:
  bool random_ties_;
};

}  // namespace

void register_bfs(RoutingRegistry& registry) {
  registry.add(
      {"bfs",
       "single shortest path (fewest links) by breadth-first search, for any topology",
       {choice_param("tie", "lowest", {"lowest", "random"},
                     "which neighbour to take when several are one hop closer to the destination: lowest = the "
                     "lowest out-link id (the lowest port); random = uniformly, from the flow's own seeded stream")},
       [](const ParamSet& p, const Topology&) -> std::unique_ptr<Routing> {
         return std::make_unique<BfsRouting>(p.get_string("tie") == "random");
       },
       "Distances are in links and computed per destination attachment vertex, shared by every flow to "
       "it: the switch of an endpoint that hangs off one switch on a single cable (so one search serves "
       "every endpoint behind that switch), the router of a direct endpoint, or the endpoint's own vertex "
       "when it is multi-homed or forwards. A path never passes "
       "through an endpoint vertex other than its source and destination unless the topology lets "
       "endpoints forward (server-centric networks). Links that are down are avoided; a flow whose "
       "destination cannot be reached is unroutable. With tie=lowest the path is the lexicographically "
       "smallest in port order among the shortest ones; with tie=random each hop is drawn uniformly among "
       "the closer neighbours from derive_seed(seed, routing stream, flow index), so the same seed gives the "
       "same paths for any thread count. Two distinct endpoints hosted by the same vertex get an empty "
       "path (zero links)."});
}

}  // namespace interflow::routing
