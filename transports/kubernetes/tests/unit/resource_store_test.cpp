// The resource source's view of a collection: what a list, a relist and watch events mean
// (a shared informer's store, as Argo's resource source sees it through its handlers).

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "source/resource_store.hpp"

using namespace ganglion::kubernetes;
using namespace ganglion::kubernetes::detail;

namespace {

std::string object(const std::string& name, const std::string& version,
                   const std::string& ns = "default") {
  return fmt::format(R"({{"metadata":{{"name":"{}","namespace":"{}","resourceVersion":"{}"}}}})",
                     name, ns, version);
}

std::vector<std::string> types(const std::vector<resource_change>& changes) {
  std::vector<std::string> out;
  for (const auto& c : changes)
    out.push_back(c.type);
  return out;
}

} // namespace

TEST(resource_store, the_first_list_is_an_add_per_object) {
  resource_store store;
  auto changes = store.replace({object("a", "1"), object("b", "2"), object("a", "3", "other")});
  EXPECT_EQ(types(changes), (std::vector<std::string>{"ADD", "ADD", "ADD"}));
  EXPECT_EQ(store.size(), 3u);
}

TEST(resource_store, a_relist_reports_only_the_differences) {
  resource_store store;
  store.replace({object("same", "1"), object("changed", "2"), object("gone", "3")});
  auto changes = store.replace({object("same", "1"), object("changed", "7"), object("new", "8")});
  ASSERT_EQ(types(changes), (std::vector<std::string>{"UPDATE", "ADD", "DELETE"}));
  EXPECT_EQ(changes[0].object, object("changed", "7"));
  EXPECT_EQ(changes[0].old_object, object("changed", "2"));
  EXPECT_EQ(changes[1].object, object("new", "8"));
  EXPECT_EQ(changes[2].object, object("gone", "3")); // its last known state
  EXPECT_TRUE(store.replace({object("same", "1"), object("changed", "7"), object("new", "8")})
                .empty());
}

TEST(resource_store, watch_events_follow_the_informer) {
  resource_store store;
  store.replace({object("a", "1")});
  EXPECT_EQ(types(store.apply({"ADDED", object("b", "2")})), (std::vector<std::string>{"ADD"}));
  auto update = store.apply({"MODIFIED", object("a", "3")});
  ASSERT_EQ(types(update), (std::vector<std::string>{"UPDATE"}));
  EXPECT_EQ(update[0].old_object, object("a", "1"));
  // Argo drops an update whose resourceVersion did not change.
  EXPECT_TRUE(store.apply({"MODIFIED", object("a", "3")}).empty());
  // A MODIFIED of an object not known is an ADD, an ADDED of a known one an UPDATE.
  EXPECT_EQ(types(store.apply({"MODIFIED", object("c", "4")})), (std::vector<std::string>{"ADD"}));
  EXPECT_EQ(types(store.apply({"ADDED", object("c", "5")})),
            (std::vector<std::string>{"UPDATE"}));
  EXPECT_EQ(types(store.apply({"DELETED", object("a", "6")})),
            (std::vector<std::string>{"DELETE"}));
  EXPECT_TRUE(store.apply({"DELETED", object("a", "6")}).empty());
  EXPECT_TRUE(store.apply({"BOOKMARK", object("x", "9")}).empty());
  EXPECT_EQ(store.size(), 2u);
}

TEST(resource_store, objects_without_a_name_are_skipped) {
  resource_store store;
  auto changes = store.replace({"not json", R"({"metadata":{}})", object("a", "1")});
  EXPECT_EQ(types(changes), (std::vector<std::string>{"ADD"}));
  EXPECT_EQ(store.skipped(), 2u);
}
