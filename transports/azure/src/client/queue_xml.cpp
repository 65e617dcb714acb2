#include "client/queue_xml.hpp"

#include <array>
#include <cctype>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>

#include <expat.h>
#include <fmt/format.h>

namespace ganglion::azure::detail {

namespace {

/// A document read element by element: `start` gets each element's path (names from the root)
/// as it opens, `end` its path and its text (the character data directly inside it) as it
/// closes.
class xml_reader {
public:
  using start_fn = std::function<void(const std::vector<std::string>&)>;
  using end_fn = std::function<void(const std::vector<std::string>&, std::string&&)>;

  xml_reader(start_fn start, end_fn end)
    : parser_(XML_ParserCreate("UTF-8"), &XML_ParserFree), start_(std::move(start)),
      end_(std::move(end)) {
    if (!parser_)
      throw std::runtime_error("the XML parser could not be made");
    XML_SetUserData(parser_.get(), this);
    XML_SetElementHandler(parser_.get(), &xml_reader::on_start, &xml_reader::on_end);
    XML_SetCharacterDataHandler(parser_.get(), &xml_reader::on_text);
    XML_SetStartDoctypeDeclHandler(parser_.get(), &xml_reader::on_doctype);
  }

  /// Reads `xml`; throws std::runtime_error with expat's reason and place.
  void read(std::string_view xml) {
    auto status = XML_Parse(parser_.get(), xml.data(), static_cast<int>(xml.size()), XML_TRUE);
    if (!doctype_error_.empty())
      throw std::runtime_error(doctype_error_);
    if (status != XML_STATUS_OK)
      throw std::runtime_error(fmt::format(
        "not XML: {} at line {}, column {}", XML_ErrorString(XML_GetErrorCode(parser_.get())),
        XML_GetCurrentLineNumber(parser_.get()), XML_GetCurrentColumnNumber(parser_.get())));
  }

private:
  static void on_start(void* self, const XML_Char* name, const XML_Char**) {
    auto& r = *static_cast<xml_reader*>(self);
    r.path_.emplace_back(name);
    r.text_.clear();
    r.start_(r.path_);
  }

  static void on_end(void* self, const XML_Char*) {
    auto& r = *static_cast<xml_reader*>(self);
    r.end_(r.path_, std::move(r.text_));
    r.text_.clear();
    r.path_.pop_back();
  }

  static void on_text(void* self, const XML_Char* text, int length) {
    static_cast<xml_reader*>(self)->text_.append(text, static_cast<std::size_t>(length));
  }

  static void on_doctype(void* self, const XML_Char*, const XML_Char*, const XML_Char*, int) {
    auto& r = *static_cast<xml_reader*>(self);
    r.doctype_error_ = "the answer declares a DTD, which Azure never sends";
    XML_StopParser(r.parser_.get(), XML_FALSE);
  }

  std::unique_ptr<XML_ParserStruct, decltype(&XML_ParserFree)> parser_;
  start_fn start_;
  end_fn end_;
  std::vector<std::string> path_;
  std::string text_;
  std::string doctype_error_;
};

bool all_digits(std::string_view text) {
  if (text.empty())
    return false;
  for (unsigned char c : text)
    if (!std::isdigit(c))
      return false;
  return true;
}

int number(std::string_view digits) {
  int n = 0;
  for (char c : digits)
    n = n * 10 + (c - '0');
  return n;
}

/// The index (0-based) of `word` in `names`, compared case-insensitively as Go's lookup does.
template <std::size_t N>
int index_of(const std::array<const char*, N>& names, std::string_view word) {
  for (std::size_t i = 0; i < N; ++i) {
    std::string_view name = names[i];
    if (name.size() != word.size())
      continue;
    bool same = true;
    for (std::size_t k = 0; k < word.size() && same; ++k)
      same = std::tolower(static_cast<unsigned char>(name[k]))
             == std::tolower(static_cast<unsigned char>(word[k]));
    if (same)
      return static_cast<int>(i);
  }
  return -1;
}

int days_in(int month, int year) {
  static constexpr std::array<int, 12> days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : days[static_cast<std::size_t>(month - 1)];
}

/// The offset in seconds Go gives zone abbreviation `zone` when parsing (`GMT+3`: 3 h; `UTC`,
/// `GMT` and any other abbreviation: 0); nullopt when Go refuses it.
std::optional<int> zone_offset(std::string_view zone) {
  if (zone == "UTC")
    return 0;
  if (zone.substr(0, 3) == "GMT") {
    auto rest = zone.substr(3);
    if (rest.empty())
      return 0;
    if ((rest[0] != '+' && rest[0] != '-') || !all_digits(rest.substr(1)) || rest.size() > 3)
      return std::nullopt;
    int hours = number(rest.substr(1));
    if (hours > 24)
      return std::nullopt;
    return (rest[0] == '-' ? -hours : hours) * 3600;
  }
  if (zone.size() < 3 || zone.size() > 5)
    return std::nullopt;
  for (unsigned char c : zone)
    if (!std::isupper(c))
      return std::nullopt;
  if (zone.size() > 3 && zone.back() != 'T')
    return std::nullopt;
  return 0;
}

} // namespace

std::string rfc1123_as_go_json_time(std::string_view text) {
  static constexpr std::array<const char*, 7> weekdays{"Sun", "Mon", "Tue", "Wed",
                                                      "Thu", "Fri", "Sat"};
  static constexpr std::array<const char*, 12> months{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  // Mon, 02 Jan 2006 15:04:05 MST (the hour may have one digit).
  if (text.size() < 28 || index_of(weekdays, text.substr(0, 3)) < 0 || text.substr(3, 2) != ", ")
    return {};
  auto day_text = text.substr(5, 2);
  auto month = index_of(months, text.substr(8, 3)) + 1;
  auto year_text = text.substr(12, 4);
  if (!all_digits(day_text) || text[7] != ' ' || month == 0 || text[11] != ' '
      || !all_digits(year_text) || text[16] != ' ')
    return {};
  auto rest = text.substr(17);
  auto colon = rest.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 2 || rest.size() < colon + 7)
    return {};
  auto hour_text = rest.substr(0, colon);
  auto minute_text = rest.substr(colon + 1, 2);
  auto second_text = rest.substr(colon + 4, 2);
  if (!all_digits(hour_text) || !all_digits(minute_text) || rest[colon + 3] != ':'
      || !all_digits(second_text) || rest[colon + 6] != ' ')
    return {};
  auto offset = zone_offset(rest.substr(colon + 7));
  int day = number(day_text);
  int year = number(year_text);
  int hour = number(hour_text);
  int minute = number(minute_text);
  int second = number(second_text);
  if (!offset || hour > 23 || minute > 59 || second > 59 || day < 1
      || day > days_in(month, year))
    return {};
  auto zone = *offset == 0 ? std::string{"Z"}
                           : fmt::format("{}{:02}:00", *offset < 0 ? '-' : '+',
                                         std::abs(*offset) / 3600);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{}", year, month, day, hour, minute,
                     second, zone);
}

std::vector<queue_message> parse_queue_messages(std::string_view xml) {
  std::vector<queue_message> out;
  std::string root;
  std::string bad_time;
  auto in_message = [](const std::vector<std::string>& path) {
    return path.size() >= 2 && path[0] == "QueueMessagesList" && path[1] == "QueueMessage";
  };
  xml_reader reader(
    [&](const std::vector<std::string>& path) {
      if (path.size() == 1)
        root = path[0];
      else if (path.size() == 2 && in_message(path))
        out.emplace_back();
    },
    [&](const std::vector<std::string>& path, std::string&& text) {
      if (path.size() != 3 || !in_message(path))
        return;
      auto& m = out.back();
      const auto& field = path[2];
      if (field == "MessageId") {
        m.id = std::move(text);
      } else if (field == "PopReceipt") {
        m.pop_receipt = std::move(text);
      } else if (field == "MessageText") {
        m.text = std::move(text);
      } else if (field == "DequeueCount") {
        m.dequeue_count = all_digits(text) && text.size() < 18 ? std::stoll(text) : 0;
      } else if (field == "InsertionTime") {
        m.insertion_time = rfc1123_as_go_json_time(text);
        if (m.insertion_time.empty() && bad_time.empty())
          bad_time = text.substr(0, 64);
      }
    });
  reader.read(xml);
  if (root != "QueueMessagesList")
    throw std::runtime_error("the answer is not a QueueMessagesList");
  if (!bad_time.empty())
    throw std::runtime_error(fmt::format(
      "parsing time \"{}\" as \"Mon, 02 Jan 2006 15:04:05 MST\": not RFC 1123", bad_time));
  return out;
}

storage_error parse_storage_error(std::string_view xml) {
  storage_error out;
  try {
    xml_reader reader([](const std::vector<std::string>&) {},
                      [&](const std::vector<std::string>& path, std::string&& text) {
                        if (path.size() != 2 || path[0] != "Error")
                          return;
                        if (path[1] == "Code")
                          out.code = std::move(text);
                        else if (path[1] == "Message")
                          out.message = std::move(text);
                      });
    reader.read(xml);
  } catch (const std::exception&) {
    return {};
  }
  return out;
}

} // namespace ganglion::azure::detail
