"""Steps 2–4: the raw HTTP baselines every webhook figure is divided by."""

import os
import shlex
import shutil

from .procs import StepError, free_port, wait_port

NGINX_CONF = """worker_processes 2;
error_log {tmp}/nginx-error.log;
pid {tmp}/nginx.pid;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {tmp}/nginx-body;
  proxy_temp_path {tmp}/nginx-proxy;
  fastcgi_temp_path {tmp}/nginx-fastcgi;
  uwsgi_temp_path {tmp}/nginx-uwsgi;
  scgi_temp_path {tmp}/nginx-scgi;
  server {{
    listen 127.0.0.1:{port};
    location / {{ return 200 "success"; }}
  }}
}}
"""


def measure_server(ctx, cmd, port, log_name):
    """Starts a server, runs the closed loop against it, stops it; returns (report, {command,
    server}) with both command lines."""
    loadgen = ctx.require_loadgen()
    log = ctx.path(log_name)
    server = ctx.procs.start(cmd, log_path=log)
    try:
        if not wait_port(port, 10):
            raise StepError(f"{cmd[0]} did not listen on port {port}; log: {log}")
        report, command, rounds = loadgen.run_median(f"http://127.0.0.1:{port}/ingest")
        return report, {"command": command, "server": shlex.join(str(c) for c in cmd),
                        "rounds_rps": rounds}
    finally:
        ctx.procs.stop(server)


def baseline_server(ctx, mode, figure, baseline=None):
    """ganglion-http-baseline in `mode` (beast or pool), 2 io threads like the webhook server."""
    binary = ctx.binary("ganglion-http-baseline")
    port = free_port()
    cmd = [binary, "--port", str(port), "--threads", "2", "--mode", mode]
    report, run = measure_server(ctx, cmd, port, f"baseline-{mode}.log")
    ctx.figures.add(figure, report["throughput_rps"], "req/s", baseline=baseline, **run)


def http_raw(ctx):
    """http_raw_rps: the raw Boost.Beast server (the baseline)."""
    baseline_server(ctx, "beast", "http_raw_rps")


def http_pool(ctx):
    """http_pool_rps: ganglion's server_pool alone, answering at once (information)."""
    baseline_server(ctx, "pool", "http_pool_rps", baseline="http_raw_rps")


def find_nginx():
    """The nginx binary, or None."""
    if os.access("/usr/sbin/nginx", os.X_OK):
        return "/usr/sbin/nginx"
    return shutil.which("nginx")


def nginx(ctx):
    """nginx_rps: nginx with 2 workers answering `return 200` (information)."""
    binary = find_nginx()
    if not binary:
        ctx.figures.missing("nginx_rps", "req/s", "nginx not installed")
        print("  nginx is not installed: skipped")
        return
    port = free_port()
    conf = ctx.path("nginx.conf")
    with open(conf, "w", encoding="utf-8") as f:
        f.write(NGINX_CONF.format(tmp=ctx.tmp, port=port))
    cmd = [binary, "-p", ctx.tmp, "-c", conf, "-g", "daemon off;"]
    report, run = measure_server(ctx, cmd, port, "nginx.log")
    ctx.figures.add("nginx_rps", report["throughput_rps"], "req/s", baseline="http_raw_rps", **run)
