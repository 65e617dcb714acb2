// ganglion-kafka-mock: a Kafka cluster for manual runs and the bench (librdkafka's mock
// cluster on 127.0.0.1). Prints the bootstrap list on stdout, then serves until SIGTERM or SIGINT.
//
//   ganglion-kafka-mock [--brokers N] [--topic name:partitions]...

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

namespace {

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "ganglion-kafka-mock: %s\n"
               "usage: ganglion-kafka-mock [--brokers N] [--topic name:partitions]...\n",
               why);
  std::exit(2);
}

int positive(const std::string& text, const char* what) {
  char* end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < 1 || value > 10000)
    usage((std::string("invalid ") + what + " '" + text + "'").c_str());
  return static_cast<int>(value);
}

} // namespace

int main(int argc, char** argv) {
  int brokers = 1;
  std::vector<std::pair<std::string, int>> topics;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "--brokers" || arg == "--topic") && i + 1 >= argc)
      usage((arg + " needs a value").c_str());
    if (arg == "--brokers") {
      brokers = positive(argv[++i], "broker count");
    } else if (arg == "--topic") {
      std::string spec = argv[++i];
      auto colon = spec.rfind(':');
      if (colon == std::string::npos || colon == 0)
        usage(("--topic wants name:partitions, got '" + spec + "'").c_str());
      topics.emplace_back(spec.substr(0, colon),
                          positive(spec.substr(colon + 1), "partition count"));
    } else if (arg == "--help" || arg == "-h") {
      usage("a librdkafka mock cluster on 127.0.0.1");
    } else {
      usage(("unknown argument '" + arg + "'").c_str());
    }
  }

  // Block the stop signals before librdkafka starts its threads, then wait for one of them.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);

  // The cluster belongs to the handle made with test.mock.num.brokers and goes with it.
  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "log_level", "3", error, sizeof error);
  rd_kafka_conf_set(conf, "test.mock.num.brokers", std::to_string(brokers).c_str(), error,
                    sizeof error);
  rd_kafka_t* owner = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
  if (owner == nullptr) {
    std::fprintf(stderr, "ganglion-kafka-mock: %s\n", error);
    return 1;
  }
  rd_kafka_mock_cluster_t* cluster = rd_kafka_handle_mock_cluster(owner);
  if (cluster == nullptr) {
    std::fprintf(stderr, "ganglion-kafka-mock: cannot create the mock cluster\n");
    rd_kafka_destroy(owner);
    return 1;
  }
  for (const auto& [name, partitions] : topics) {
    auto err = rd_kafka_mock_topic_create(cluster, name.c_str(), partitions, 1);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      std::fprintf(stderr, "ganglion-kafka-mock: topic %s: %s\n", name.c_str(),
                   rd_kafka_err2str(err));
      rd_kafka_destroy(owner);
      return 1;
    }
  }
  std::printf("%s\n", rd_kafka_mock_cluster_bootstraps(cluster));
  std::fflush(stdout);

  int signal = 0;
  sigwait(&stop, &signal);
  rd_kafka_destroy(owner);
  return 0;
}
