"""Steps 18–21: messages from a broker → the mqtt, amqp, redis or redisStream source → durable
bus → sensor → log trigger, next to the raw client library consuming the same messages in the
same run (`ganglion-source-baseline`, bench/baseline). Both sides read the same number of
messages of the same size from the same broker process, in interleaved rounds (raw, ganglion;
again); a figure is the median round by events/s.

Two designs, by what the broker can do:

- amqp and redisStream keep what nobody read, so the messages are loaded first (a queue bound to
  a fanout exchange; a stream with Argo's consumer group made before the entries) and then the
  consumer starts and drains them: events/s from its first message to its last. Nothing may be
  lost (manual acks, XACK).
- mqtt (QoS 0) and Redis Pub/Sub cannot keep anything for later: the consumer subscribes first
  (the raw one prints `ready`, ganglion answers /ready once subscribed), then one publisher sends
  the messages as fast as it goes, a steady rate that is above what either consumer takes, so
  each consumer runs flat out while the broker keeps what it has not taken yet within its
  packaged limits (mosquitto: 1000 queued QoS 0 messages per subscriber; Redis: a subscriber
  32 MiB behind is disconnected). events/s are received messages over first → last, and `lost`
  says how many never arrived. The raw reader may keep up with the publisher, then its figure
  is the publisher's rate and the ratio flatters ganglion (the figure's publish_eps shows it)."""

import json
import os
import shlex
import subprocess
import time

from . import brokers
from .engine import counter, write_scenario
from .procs import StepError, http_get, wait_log_line
from .signals import cpu_seconds, start_engine_process

SIZE = 256
POLL_S = 0.02   # how often ganglion's /metrics is read
IDLE_S = 3      # a run is over when nothing arrived for this long (pub/sub: what is left is lost)
START_S = 60    # the first event may take the engine's start
SENSOR, TRIGGER, EVENT_SOURCE, EVENT = "bench", "log", "bench", "ingest"


def message_count(ctx):
    """Messages per run: 100 000 (quick: 20 000)."""
    return 20000 if ctx.quick else 100000


def rounds(ctx):
    """Rounds of each side; a figure is the median by events/s (quick: one)."""
    return 1 if ctx.quick else 3


class Kind:
    """What differs between the four steps: the broker, the tool's modes, the scenario."""

    def __init__(self, prefix, start, consume, feed, pubsub, scenario, values):
        self.prefix, self.start, self.consume, self.feed = prefix, start, consume, feed
        self.pubsub, self.scenario, self.values = pubsub, scenario, values

    def feed_args(self, address, name):
        """The feeding mode's arguments besides --count and --size."""
        args = ["--address", address, "--name", name]
        return args + (["--exchange", name] if self.feed == "amqp-load" else [])


KINDS = {
    "mqtt": Kind("mqtt", brokers.start_mosquitto, "mqtt", "mqtt-publish", True,
                 "source-mqtt.yaml",
                 lambda a, n: {"URL": f"tcp://{a}", "TOPIC": n, "CLIENT_ID": f"ganglion-{n}"}),
    "amqp": Kind("amqp", brokers.start_rabbitmq, "amqp", "amqp-load", False, "source-amqp.yaml",
                 lambda a, n: {"URL": a, "EXCHANGE": n, "QUEUE": n}),
    "redis": Kind("redis", brokers.start_redis, "redis", "redis-publish", True,
                  "source-redis.yaml", lambda a, n: {"ADDRESS": a, "CHANNEL": n}),
    "redis_stream": Kind("redis_stream", brokers.start_redis, "redis-stream",
                         "redis-stream-load", False, "source-redis-stream.yaml",
                         lambda a, n: {"ADDRESS": a, "STREAM": n}),
}


def tool(ctx):
    """build/ganglion-source-baseline."""
    return ctx.binary("ganglion-source-baseline")


def sizes(ctx):
    """--count and --size of every mode."""
    return ["--count", str(message_count(ctx)), "--size", str(SIZE)]


def start_feed(ctx, kind, address, name):
    """Starts the publisher or loader: (process, log, command text)."""
    cmd = [tool(ctx), kind.feed, *kind.feed_args(address, name), *sizes(ctx)]
    log = ctx.path(f"{name}-feed.log")
    return ctx.procs.start(cmd, log_path=log), log, shlex.join(cmd)


def feed_result(ctx, feed):
    """The JSON report of a started publisher or loader, once it ended."""
    proc, log, text = feed
    try:
        proc.wait(timeout=300)
    except subprocess.TimeoutExpired:
        raise StepError(f"no result after 300 s: {text}") from None
    finally:
        ctx.procs.stop(proc)
    report = last_json(log)
    if proc.returncode != 0 or report is None:
        raise StepError(f"exit {proc.returncode}: {text}; log: {log}")
    return report


def run_feed(ctx, kind, address, name):
    """The publisher or loader, to its end: (its JSON report, command text)."""
    feed = start_feed(ctx, kind, address, name)
    return feed_result(ctx, feed), feed[2]


def last_json(log):
    """The last JSON line of a log file, None when there is none."""
    with open(log, encoding="utf-8", errors="replace") as f:
        lines = [l for l in f if l.startswith("{")]
    return json.loads(lines[-1]) if lines else None


def raw_run(ctx, kind, address, name):
    """The raw consumer on `name`: (events/s first → last, the figure's fields)."""
    feed = None
    if not kind.pubsub:
        feed, _ = run_feed(ctx, kind, address, name)
    cmd = [tool(ctx), kind.consume, "--address", address, "--name", name, *sizes(ctx),
           "--idle-timeout", str(IDLE_S)]
    log = ctx.path(f"{name}.log")
    proc = ctx.procs.start(cmd, log_path=log)
    try:
        wait_log_line(ctx.procs, proc, log, kind.consume,
                      lambda l: True if l.strip() == "ready" else None, "never printed `ready`")
        if kind.pubsub:
            feed, _ = run_feed(ctx, kind, address, name)
        proc.wait(timeout=START_S + 120)
    except subprocess.TimeoutExpired:
        raise StepError(f"the raw consumer did not finish; log: {log}") from None
    finally:
        ctx.procs.stop(proc)
    report = last_json(log)
    if proc.returncode not in (0, 1) or report is None:
        raise StepError(f"the raw consumer exited with {proc.returncode}; log: {log}")
    check_lost(kind, "raw", report["missing"], log)
    print(f"  raw {kind.consume}: {report['events_per_s']:,.0f} events/s ({report['events']} in "
          f"{report['seconds']:.2f} s), lost {report['missing']}; fed at "
          f"{feed['events_per_s']:,.0f}/s", flush=True)
    return report["events_per_s"], {"command": shlex.join(cmd), "events": report["events"],
                                    "seconds": report["seconds"], "lost": report["missing"],
                                    "publish_eps": feed["events_per_s"], "load_average": load()}


def load():
    """The load averages (1, 5, 15 min), for the figure's fields."""
    return [round(x, 2) for x in os.getloadavg()]


def check_lost(kind, side, lost, log):
    """A queue or stream must lose nothing: StepError when it did."""
    if lost and not kind.pubsub:
        raise StepError(f"{side}: {lost} messages of the {kind.prefix} drain never arrived; "
                        f"log: {log}")


class Sample:
    """One read of the engine's counters and its CPU time."""

    def __init__(self, at, metrics, cpu):
        self.at, self.cpu = at, cpu
        self.fired = counter(metrics, "ganglion_triggers_fired_total", sensor=SENSOR,
                             trigger=TRIGGER)
        self.received = counter(metrics, "ganglion_events_received_total",
                                eventsource=EVENT_SOURCE, event=EVENT)
        self.accepted = counter(metrics, "ganglion_events_accepted_total",
                                eventsource=EVENT_SOURCE, event=EVENT)


def sample_drain(engine, count):
    """Reads /metrics every POLL_S until the trigger fired `count` times or nothing moved for
    IDLE_S after the first firing: (first sample with a firing, the first sample with the final
    count). StepError when the engine exits or fires nothing within START_S."""
    began = time.monotonic()
    first = done = None
    while True:
        now, metrics = engine.poll_metrics()
        if metrics is not None:
            s = Sample(now, metrics, cpu_seconds(engine.proc.pid))
            if s.fired > 0 and first is None:
                first = s
            if done is None or s.fired != done.fired:
                done = s
            if s.fired >= count:
                return first, s
        if first is None and now - began > START_S:
            raise StepError(f"the trigger fired nothing within {START_S} s; log: "
                            f"{engine.log_path}")
        if first is not None and now - done.at > IDLE_S:
            return first, done
        time.sleep(POLL_S)


def ganglion_run(ctx, kind, address, name):
    """The kind's scenario on the durable bus, fed `name`: (firings/s first → last, fields)."""
    count = message_count(ctx)
    manifests = write_scenario(os.path.join(ctx.scenarios, kind.scenario),
                               kind.values(address, name), ctx.path(name))
    feed = None
    if not kind.pubsub:
        feed, feed_cmd = run_feed(ctx, kind, address, name)
    engine = start_engine_process(ctx, name, manifests, [])
    try:
        if kind.pubsub:
            wait_ready(engine)
            publisher = start_feed(ctx, kind, address, name)  # sampled while it publishes
            feed_cmd = publisher[2]
        first, done = sample_drain(engine, count)
        if kind.pubsub:
            feed = feed_result(ctx, publisher)
    finally:
        engine.stop()
    if done.at <= first.at:
        raise StepError(f"all firings came between two reads of /metrics: raise the count; "
                        f"log: {engine.log_path}")
    eps = (done.fired - first.fired) / (done.at - first.at)
    lost = count - int(done.fired)
    check_lost(kind, "ganglion", lost, engine.log_path)
    fields = {"command": feed_cmd, "engine": engine.command_text(),
              "engine_log": engine.log_path, "events": int(done.fired),
              "seconds": round(done.at - first.at, 3), "lost": lost,
              "source_received": int(done.received), "source_accepted": int(done.accepted),
              "publish_eps": feed["events_per_s"], "load_average": load()}
    if first.cpu is not None and done.cpu is not None and done.fired > first.fired:
        fields["engine_cpu_us_per_event"] = round(
            1e6 * (done.cpu - first.cpu) / (done.fired - first.fired), 1)
    print(f"  ganglion {kind.prefix}: {eps:,.0f} firings/s ({fields['events']} in "
          f"{fields['seconds']:.2f} s), lost {lost} (the source received "
          f"{fields['source_received']}, the bus accepted {fields['source_accepted']}); CPU "
          f"{fields.get('engine_cpu_us_per_event')} µs/event; fed at "
          f"{feed['events_per_s']:,.0f}/s", flush=True)
    return eps, fields


def wait_ready(engine, timeout=START_S):
    """Waits for GET /ready = 200 (the pub/sub sources are subscribed then)."""
    url = f"http://127.0.0.1:{engine.admin_port}/ready"
    deadline = time.monotonic() + timeout
    while http_get(url, timeout=1.0)[0] != 200:
        if engine.proc.poll() is not None or time.monotonic() > deadline:
            raise StepError(f"ganglion was not ready; log: {engine.log_path}")
        time.sleep(0.05)


def median(runs):
    """The median (events/s, fields) by events/s, with every round's events/s and losses."""
    eps, fields = sorted(runs, key=lambda r: r[0])[len(runs) // 2]
    return eps, {**fields, "rounds_eps": [round(r[0]) for r in runs],
                 "rounds_lost": [r[1]["lost"] for r in runs]}


def median_lost(runs):
    """The median of the rounds' losses (the median round by events/s may be one that lost
    nothing while the others lost)."""
    return sorted(r[1]["lost"] for r in runs)[len(runs) // 2]


def measure(ctx, key):
    """<prefix>_raw_eps and <prefix>_source_eps (target ≥ 0.5 × raw) of one kind; for the
    pub/sub kinds also <prefix>_raw_lost and <prefix>_source_lost, the median of the rounds'
    losses."""
    kind = KINDS[key]
    procs, address = kind.start(ctx, f"{kind.prefix}-broker")
    raw, ganglion = [], []
    try:
        for i in range(1, rounds(ctx) + 1):
            raw.append(raw_run(ctx, kind, address, f"{kind.prefix}-raw-{i}"))
            ganglion.append(ganglion_run(ctx, kind, address, f"{kind.prefix}-ganglion-{i}"))
    finally:
        brokers.stop(ctx, procs)
    f, p = ctx.figures, kind.prefix
    eps, fields = median(raw)
    f.add(f"{p}_raw_eps", eps, "events/s", **fields)
    eps, fields = median(ganglion)
    f.add(f"{p}_source_eps", eps, "events/s", baseline=f"{p}_raw_eps", target=("≥", 0.5),
          **fields)
    if kind.pubsub:
        count = message_count(ctx)
        for side, runs in (("raw", raw), ("source", ganglion)):
            f.add(f"{p}_{side}_lost", median_lost(runs), "events", of=count,
                  rounds_lost=[r[1]["lost"] for r in runs])


def mqtt(ctx):
    """mqtt_raw_eps (libmosquitto subscriber, QoS 0) vs mqtt_source_eps (mosquitto → mqtt source
    → durable bus → sensor → log trigger), the same publisher's burst; with the losses."""
    measure(ctx, "mqtt")


def amqp(ctx):
    """amqp_raw_eps (librabbitmq basic.consume, manual acks, prefetch 256) vs amqp_source_eps
    (RabbitMQ queue → amqp source → durable bus → sensor → log trigger), draining the same
    preloaded queue size."""
    measure(ctx, "amqp")


def redis(ctx):
    """redis_raw_eps (hiredis SUBSCRIBE reader) vs redis_source_eps (Pub/Sub → redis source →
    durable bus → sensor → log trigger), the same publisher's burst; with the losses."""
    measure(ctx, "redis")


def redis_stream(ctx):
    """redis_stream_raw_eps (hiredis XREADGROUP COUNT 10 + XACK) vs redis_stream_source_eps
    (stream → redisStream source → durable bus → sensor → log trigger), draining the same
    preloaded stream length."""
    measure(ctx, "redis_stream")
