// The bytes of a file event (Argo's fsevent.Event through json.Marshal), Go's operation names
// and paths, and which names a watchPathConfig takes.

#include <gtest/gtest.h>

#include "client/fs_event.hpp"
#include "source/event_data.hpp"
#include "source/listing_diff.hpp"
#include "source/path_match.hpp"

using namespace ganglion::file;

TEST(file_event_data, is_name_numeric_op_and_metadata_as_go_marshals_them) {
  EXPECT_EQ(file_event_data("/test-data/x.txt", op_create, std::nullopt),
            R"({"name":"/test-data/x.txt","op":1,"metadata":null})");
  EXPECT_EQ(file_event_data("a<b>&\"", op_chmod, metadata_map{{{"z", "1"}, {"a", "<"}}}),
            R"({"name":"a\u003cb\u003e\u0026\"","op":16,"metadata":{"a":"\u003c","z":"1"}})");
  EXPECT_EQ(file_event_data("x", op_write | op_remove, metadata_map{std::map<std::string, std::string>{}}),
            R"({"name":"x","op":6,"metadata":{}})");
}

TEST(file_event_data, op_names_are_fsnotify_s) {
  EXPECT_EQ(op_string(op_create), "CREATE");
  EXPECT_EQ(op_string(op_write), "WRITE");
  EXPECT_EQ(op_string(op_remove), "REMOVE");
  EXPECT_EQ(op_string(op_rename), "RENAME");
  EXPECT_EQ(op_string(op_chmod), "CHMOD");
  EXPECT_EQ(op_string(op_create | op_write | op_remove), "CREATE|REMOVE|WRITE");
  EXPECT_EQ(op_string(0), "");
  EXPECT_EQ(op_bits("CREATE|WRITE"), op_create | op_write);
  EXPECT_EQ(op_bits("MOVE"), 0u);
}

TEST(file_event_data, go_clean_is_filepath_clean) {
  EXPECT_EQ(go_clean("/test-data/"), "/test-data");
  EXPECT_EQ(go_clean("/a//b/./c/../d"), "/a/b/d");
  EXPECT_EQ(go_clean("/"), "/");
  EXPECT_EQ(go_clean("/.."), "/");
  EXPECT_EQ(go_clean("a/../.."), "..");
  EXPECT_EQ(go_clean(""), ".");
}

TEST(file_path_match, path_is_compared_after_the_directory_as_written) {
  path_matcher slash{{"/data/", "x.txt", ""}};
  EXPECT_TRUE(slash.matches("/data/x.txt"));
  EXPECT_TRUE(slash.matches("x.txt")); // polling and sftp give base names
  EXPECT_FALSE(slash.matches("/data/y.txt"));
  path_matcher bare{{"/data", "x.txt", ""}};
  EXPECT_FALSE(bare.matches("/data/x.txt")); // Argo: "/x.txt" != "x.txt"
}

TEST(file_path_match, path_regexp_is_found_anywhere_as_go_matchstring) {
  path_matcher re{{"/bin/", "", "([a-z]+).txt"}};
  EXPECT_TRUE(re.matches("/bin/abc.txt"));
  EXPECT_TRUE(re.matches("/bin/1a.txt.swp"));
  EXPECT_FALSE(re.matches("/bin/123.txt"));
  path_matcher anchored{{"/bin/", "", "^[a-z]+\\.txt$"}};
  EXPECT_TRUE(anchored.matches("/bin/abc.txt"));
  EXPECT_FALSE(anchored.matches("/bin/abc.txt.swp"));
  EXPECT_THROW(path_matcher({"/bin/", "", "("}), std::invalid_argument);
}

TEST(file_listing_diff, is_argo_s_diff_files) {
  std::vector<remote_file> before{{"a", 1, 10}, {"b", 2, 20}, {"c", 3, 30}};
  std::vector<remote_file> now{{"d", 4, 40}, {"c", 3, 31}, {"a", 1, 10}, {"e", 5, 50}};
  auto diff = diff_listings(before, now);
  ASSERT_EQ(diff.removed.size(), 1u);
  EXPECT_EQ(diff.removed[0].name, "b");
  std::vector<std::string> created;
  for (const auto& f : diff.created)
    created.push_back(f.name);
  EXPECT_EQ(created, (std::vector<std::string>{"c", "d", "e"})); // changed first, then new
  EXPECT_TRUE(diff_listings(now, now).removed.empty());
  EXPECT_TRUE(diff_listings(now, now).created.empty());
}
