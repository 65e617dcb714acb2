// The email trigger's message: Go's mime encodings as gomail writes them, Argo's recipient
// check, the sender address, and the fields read from the parameterized template.

#include <gtest/gtest.h>

#include "trigger/message.hpp"
#include "trigger/mime.hpp"

using namespace ganglion::email::detail;

TEST(email_mime, q_encode_leaves_plain_ascii_and_encodes_the_rest) {
  EXPECT_EQ(q_encode("Hello There"), "Hello There");
  EXPECT_EQ(q_encode("caf\xc3\xa9 ok?"), "=?UTF-8?q?caf=C3=A9_ok=3F?=");
  // A line break in event data cannot start a new header.
  EXPECT_EQ(q_encode("hi\r\nBcc: x@y.com"), "=?UTF-8?q?hi=0D=0ABcc:_x@y.com?=");
}

TEST(email_mime, q_encode_splits_long_words_between_characters) {
  std::string value(40, 'a');
  value += "\xc3\xa9";
  value += std::string(30, 'b');
  auto encoded = q_encode(value);
  auto space = encoded.find("?= =?UTF-8?q?");
  ASSERT_NE(space, std::string::npos) << encoded;
  EXPECT_LE(space + 2, 75u);
  EXPECT_EQ(encoded.find("?= =?UTF-8?q?", space + 1), std::string::npos);
  EXPECT_EQ(encoded.substr(0, 10 + 40 + 6), "=?UTF-8?q?" + std::string(40, 'a') + "=C3=A9");
}

TEST(email_mime, header_lines_fold_at_a_space) {
  EXPECT_EQ(header_line("Subject", "short"), "Subject: short\r\n");
  std::string long_value = std::string(60, 'x') + " " + std::string(20, 'y');
  EXPECT_EQ(header_line("Subject", long_value),
            "Subject: " + std::string(60, 'x') + "\r\n " + std::string(20, 'y') + "\r\n");
}

TEST(email_mime, quoted_printable_is_gos) {
  EXPECT_EQ(quoted_printable("Hi ada,\n\n\tHello There.\n\nThanks,\nObi"),
            "Hi ada,\r\n\r\n\tHello There.\r\n\r\nThanks,\r\nObi");
  EXPECT_EQ(quoted_printable("a=b caf\xc3\xa9 \r\nend\t"), "a=3Db caf=C3=A9=20\r\nend=09");
  std::string line(80, 'x');
  EXPECT_EQ(quoted_printable(line), std::string(75, 'x') + "=\r\n" + std::string(5, 'x'));
  EXPECT_EQ(quoted_printable(".\r\n"), ".\r\n");
}

TEST(email_message, recipients_pass_argos_pattern) {
  for (const char* ok : {"a@b.cd", "first.last-x_1@mail.example.org", "x@a-b.info"})
    EXPECT_TRUE(valid_recipient(ok)) << ok;
  for (const char* bad : {"", "a@b", "a@b.c", "a@b.toolong", "a b@c.de", "a@@b.cd", "a@.cd",
                          "a@b..cd", "<a@b.cd>", "a@b.cd\r\nBcc: x@y.zz", "a+tag@b.cd"})
    EXPECT_FALSE(valid_recipient(bad)) << bad;
}

TEST(email_message, sender_address_of_a_from_value) {
  EXPECT_EQ(sender_address("bot@example.com"), "bot@example.com");
  EXPECT_EQ(sender_address("Argo Bot <bot@example.com>"), "bot@example.com");
  EXPECT_THROW(sender_address(""), std::runtime_error);
  EXPECT_THROW(sender_address("nobody"), std::runtime_error);
  EXPECT_THROW(sender_address("bot@example.com\r\nBcc: x@y.com"), std::runtime_error);
  EXPECT_THROW(sender_address("Bot <bot@example.com"), std::runtime_error);
}

TEST(email_message, the_message_gomail_writes) {
  email_fields f{
    "h", 587, "u", {"to@example.com"}, "bot@example.com", "Hello There", "Hi ada,\n\nbye"};
  EXPECT_EQ(build_message(f, "to@example.com", "Sat, 05 Dec 2026 17:00:00 +0000"),
            "Mime-Version: 1.0\r\n"
            "Date: Sat, 05 Dec 2026 17:00:00 +0000\r\n"
            "From: bot@example.com\r\n"
            "To: to@example.com\r\n"
            "Subject: Hello There\r\n"
            "Content-Type: text/plain; charset=UTF-8\r\n"
            "Content-Transfer-Encoding: quoted-printable\r\n"
            "\r\n"
            "Hi ada,\r\n\r\nbye");
  auto date = rfc1123z_now();
  EXPECT_EQ(date.size(), 31u) << date;
  EXPECT_EQ(date.substr(date.size() - 5), "+0000");
}

TEST(email_message, fields_from_the_parameterized_template) {
  auto f = read_fields(R"({"host":"h","port":25,"username":"u","to":["a@b.cd"],)"
                       R"("from":"f@b.cd","subject":"s","body":"b"})");
  EXPECT_EQ(f.host, "h");
  EXPECT_EQ(f.port, 25);
  EXPECT_EQ(f.to, std::vector<std::string>{"a@b.cd"});
  EXPECT_NO_THROW(check_fields(f));
  EXPECT_THROW(read_fields(R"({"to":"a@b.cd"})"), std::runtime_error);
  EXPECT_THROW(read_fields(R"({"port":"25"})"), std::runtime_error);
  EXPECT_THROW(read_fields("[]"), std::runtime_error);
}

TEST(email_message, argos_checks_come_first_in_its_order) {
  email_fields f{"h", 25, "", {}, "f@b.cd", "", ""};
  auto first_problem = [&] {
    try {
      check_fields(f);
    } catch (const std::runtime_error& e) {
      return std::string{e.what()};
    }
    return std::string{};
  };
  EXPECT_EQ(first_problem(), "to can't be empty");
  f.to = {"a@b.cd"};
  EXPECT_EQ(first_problem(), "body can't be empty");
  f.body = "b";
  EXPECT_EQ(first_problem(), "subject can't be empty");
  f.subject = "s";
  f.port = 0;
  EXPECT_EQ(first_problem(), "port 0 is not an SMTP server's port");
  f.port = 25;
  f.body = std::string((std::size_t{10} << 20) + 1, 'x');
  EXPECT_NE(first_problem().find("ganglion sends"), std::string::npos);
  f.body = "b";
  EXPECT_EQ(first_problem(), "");
}
