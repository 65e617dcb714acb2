"""The brokers of the source steps (18–21), each a process of the run on free 127.0.0.1 ports
with its config and data in the run's temp dir, stopped by the step: mosquitto, redis-server,
rabbitmq-server (with its own epmd, node name, cookie and mnesia dir, as the test launchers in
tests/support start them)."""

import os
import random
import shutil

from .procs import StepError, free_port, is_executable, wait_port

MOSQUITTO = "/usr/sbin/mosquitto"
REDIS = "/usr/bin/redis-server"
RABBITMQ = "/usr/lib/rabbitmq/bin/rabbitmq-server"


def require(path, package):
    """path when it is an executable; StepError naming the Debian package otherwise."""
    if not is_executable(path):
        raise StepError(f"{path} is not installed (Debian package {package})")
    return path


def fresh_dir(ctx, name):
    """An empty <tmp>/<name>."""
    path = ctx.path(name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def started(ctx, procs, port, name, log, timeout):
    """Waits until `port` accepts; stops `procs` and raises StepError when it does not."""
    if wait_port(port, timeout):
        return
    for proc in reversed(procs):
        ctx.procs.stop(proc)
    raise StepError(f"{name} did not listen on port {port} within {timeout} s; log: {log}")


def start_mosquitto(ctx, name):
    """mosquitto with the packaged defaults (max_queued_messages 1000: QoS 0 messages beyond
    1000 waiting for a slow subscriber are dropped), no persistence; returns ([process],
    "127.0.0.1:port")."""
    binary = require(MOSQUITTO, "mosquitto")
    directory = fresh_dir(ctx, name)
    port = free_port()
    config = os.path.join(directory, "mosquitto.conf")
    lines = [f"listener {port} 127.0.0.1", "allow_anonymous true", "persistence false",
             "log_dest stdout", "log_type error", "log_type warning", "log_type notice"]
    if os.geteuid() == 0:
        lines.append("user root")  # as root mosquitto would drop to user mosquitto
    with open(config, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    log = ctx.path(f"{name}.log")
    proc = ctx.procs.start([binary, "-c", config], log_path=log)
    started(ctx, [proc], port, "mosquitto", log, 15)
    return [proc], f"127.0.0.1:{port}"


def start_redis(ctx, name):
    """redis-server without persistence (the measured path is the network one) and its default
    client-output-buffer-limit for Pub/Sub (a subscriber more than 32 MiB behind is
    disconnected); returns ([process], "127.0.0.1:port")."""
    binary = require(REDIS, "redis-server")
    directory = fresh_dir(ctx, name)
    port = free_port()
    cmd = [binary, "--bind", "127.0.0.1", "--port", str(port), "--dir", directory, "--save", "",
           "--appendonly", "no", "--daemonize", "no", "--protected-mode", "no"]
    log = ctx.path(f"{name}.log")
    proc = ctx.procs.start(cmd, log_path=log)
    started(ctx, [proc], port, "redis-server", log, 15)
    return [proc], f"127.0.0.1:{port}"


def start_rabbitmq(ctx, name):
    """epmd on its own port, then rabbitmq-server with its own node name, cookie (HOME), mnesia,
    log and plugin dirs, no plugins; returns ([epmd, broker], amqp URL). Its start takes several
    seconds."""
    binary = require(RABBITMQ, "rabbitmq-server")
    directory = fresh_dir(ctx, name)
    port, dist_port, epmd_port = free_port(), free_port(), free_port()
    epmd_log = ctx.path(f"{name}-epmd.log")
    epmd = ctx.procs.start(["epmd", "-port", str(epmd_port), "-address", "127.0.0.1"],
                           log_path=epmd_log)
    started(ctx, [epmd], epmd_port, "epmd", epmd_log, 10)
    with open(os.path.join(directory, "enabled_plugins"), "w", encoding="utf-8") as f:
        f.write("[].\n")
    with open(os.path.join(directory, "rabbitmq.conf"), "w", encoding="utf-8") as f:
        f.write("log.console = true\nlog.file = false\n")
    env = {**os.environ,
           "HOME": directory,  # its .erlang.cookie
           "RABBITMQ_NODENAME": f"ganglion-bench-{random.randrange(10**9)}@localhost",
           "RABBITMQ_NODE_IP_ADDRESS": "127.0.0.1",
           "RABBITMQ_NODE_PORT": str(port),
           "RABBITMQ_DIST_PORT": str(dist_port),
           "ERL_EPMD_PORT": str(epmd_port),
           "ERL_EPMD_ADDRESS": "127.0.0.1",
           "RABBITMQ_MNESIA_BASE": os.path.join(directory, "mnesia"),
           "RABBITMQ_LOG_BASE": os.path.join(directory, "log"),
           "RABBITMQ_CONFIG_FILE": os.path.join(directory, "rabbitmq"),
           "RABBITMQ_ENABLED_PLUGINS_FILE": os.path.join(directory, "enabled_plugins"),
           "RABBITMQ_PLUGINS_EXPAND_DIR": os.path.join(directory, "plugins-expand"),
           "RABBITMQ_CONF_ENV_FILE": os.path.join(directory, "rabbitmq-env.conf"),
           # the start script then execs the VM (one process to stop) instead of waiting on it
           "RABBITMQ_ALLOW_INPUT": "1",
           "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS": "-noinput"}
    log = ctx.path(f"{name}.log")
    broker = ctx.procs.start([binary], log_path=log, env=env)
    started(ctx, [epmd, broker], port, "rabbitmq-server", log, 90)
    return [epmd, broker], f"amqp://guest:guest@127.0.0.1:{port}"


def stop(ctx, procs):
    """Stops a broker's processes, newest first."""
    for proc in reversed(procs):
        ctx.procs.stop(proc, grace=20.0)
