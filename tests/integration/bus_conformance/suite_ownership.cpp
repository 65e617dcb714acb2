// The conformance suite, ownership: two replicas never both own a name, the survivor takes
// over when the owner goes away, a joining replica gets its share. Every bus driver with
// replicas passes it (bus_driver.hpp).

#include <set>
#include <string>
#include <vector>

#include "bus_driver.hpp"
#include "bus_probe.hpp"

namespace ganglion::test::bus_conformance {
namespace {

/// Enough names that every shard of every driver (16 or 32 shards) most likely has one.
std::vector<std::string> sensor_names() {
  std::vector<std::string> names;
  for (int i = 0; i < 64; ++i)
    names.push_back("sensor-" + std::to_string(i));
  return names;
}

/// No name is owned by both views.
bool disjoint(const owner_view& a, const owner_view& b) {
  auto owned_a = a.owned();
  for (auto& name : b.owned())
    if (owned_a.count(name))
      return false;
  return true;
}

TEST_P(bus_conformance, a_watched_name_has_one_owner_and_the_survivor_takes_it_over) {
  GANGLION_REQUIRE(replicas);
  GANGLION_REQUIRE(ownership);
  auto a = driver().open("replica-a");
  auto b = driver().open("replica-b");
  EXPECT_EQ(a->owners().replica(), "replica-a");
  EXPECT_EQ(b->owners().replica(), "replica-b");
  auto view_a = std::make_unique<owner_view>(a->owners(), std::vector<std::string>{"the-sensor"});
  auto view_b = std::make_unique<owner_view>(b->owners(), std::vector<std::string>{"the-sensor"});
  ASSERT_TRUE(test::eventually(
    [&] {
      EXPECT_TRUE(disjoint(*view_a, *view_b)) << "two owners at once";
      return view_a->owned().size() + view_b->owned().size() == 1;
    },
    30s))
    << "nobody owns the name";
  bool a_owned = !view_a->owned().empty();
  auto& owner = a_owned ? a : b;
  auto& owner_view_ptr = a_owned ? view_a : view_b;
  auto& survivor = a_owned ? view_b : view_a;
  owner_view_ptr.reset();
  owner.reset(); // the owner goes away (a clean stop)
  ASSERT_TRUE(test::eventually([&] { return survivor->owned().size() == 1; }, 30s))
    << "the survivor did not take the name over";
  EXPECT_FALSE(survivor->repeated()) << "a watch was told the same state twice";
}

TEST_P(bus_conformance, a_joining_replica_gets_its_share) {
  GANGLION_REQUIRE(replicas);
  GANGLION_REQUIRE(ownership);
  auto names = sensor_names();
  std::set<std::string> all(names.begin(), names.end());
  auto a = driver().open("replica-a");
  owner_view view_a{a->owners(), names};
  ASSERT_TRUE(test::eventually([&] { return view_a.owned() == all; }, 30s))
    << "a lone replica owns " << view_a.owned().size() << " of " << all.size();

  auto b = driver().open("replica-b");
  owner_view view_b{b->owners(), names};
  ASSERT_TRUE(test::eventually(
    [&] {
      EXPECT_TRUE(disjoint(view_a, view_b)) << "two owners at once";
      auto owned_a = view_a.owned(), owned_b = view_b.owned();
      std::set<std::string> both = owned_a;
      both.insert(owned_b.begin(), owned_b.end());
      return !owned_a.empty() && !owned_b.empty() && both == all;
    },
    30s))
    << "a owns " << view_a.owned().size() << ", b owns " << view_b.owned().size();
  EXPECT_FALSE(view_a.repeated() || view_b.repeated()) << "a watch was told the same state twice";
}

} // namespace
} // namespace ganglion::test::bus_conformance
