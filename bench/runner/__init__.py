"""The pieces of bench/run.py: processes, the engine, the loadgen, figures and the report."""
