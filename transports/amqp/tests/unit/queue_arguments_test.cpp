// queueDeclare.arguments: the YAML string as go-yaml decodes it into amqp091-go's Table.

#include <gtest/gtest.h>

#include "client/queue_arguments.hpp"

using namespace ganglion::amqp;

TEST(amqp_queue_arguments, scalars_resolve_as_yaml_1_2_core) {
  std::string error;
  auto t = parse_queue_arguments("x-queue-type: quorum\nx-max-length: 1000\n"
                                 "x-big: 5000000000\nx-ratio: 0.5\nx-flag: true\n"
                                 "x-quoted: \"42\"\nx-none: ~\nx-list: [1, a]\nx-yes: yes\n",
                                 error);
  ASSERT_TRUE(t) << error;
  ASSERT_EQ(t->size(), 9u);
  EXPECT_EQ((*t)[0].first, "x-queue-type");
  EXPECT_EQ(std::get<std::string>((*t)[0].second.value), "quorum");
  EXPECT_EQ(std::get<std::int64_t>((*t)[1].second.value), 1000);
  EXPECT_EQ(std::get<std::int64_t>((*t)[2].second.value), 5000000000);
  EXPECT_EQ(std::get<double>((*t)[3].second.value), 0.5);
  EXPECT_EQ(std::get<bool>((*t)[4].second.value), true);
  EXPECT_EQ(std::get<std::string>((*t)[5].second.value), "42");
  EXPECT_TRUE(std::holds_alternative<std::monostate>((*t)[6].second.value));
  EXPECT_EQ(std::get<std::vector<argument_value>>((*t)[7].second.value).size(), 2u);
  EXPECT_EQ(std::get<std::string>((*t)[8].second.value), "yes");

  amqp_arguments table{*t};
  ASSERT_EQ(table.table().num_entries, 9);
  EXPECT_EQ(table.table().entries[1].value.kind, AMQP_FIELD_KIND_I32);
  EXPECT_EQ(table.table().entries[2].value.kind, AMQP_FIELD_KIND_I64);
  EXPECT_EQ(table.table().entries[3].value.kind, AMQP_FIELD_KIND_F64);
  EXPECT_EQ(table.table().entries[7].value.kind, AMQP_FIELD_KIND_ARRAY);
  EXPECT_EQ(table.table().entries[7].value.value.array.entries[1].kind,
            AMQP_FIELD_KIND_UTF8);
}

TEST(amqp_queue_arguments, empty_text_is_no_table_and_other_shapes_are_refused) {
  std::string error;
  auto empty = parse_queue_arguments("", error);
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
  EXPECT_EQ(amqp_arguments{*empty}.table().num_entries, 0);
  EXPECT_FALSE(parse_queue_arguments("- a", error));
  EXPECT_FALSE(parse_queue_arguments("a: {b: 1}", error));
  EXPECT_FALSE(parse_queue_arguments("a: [", error));
}
