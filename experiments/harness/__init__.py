"""What the experiment's suites (experiments/suites/) and its report (experiments/report/) share,
said once: paths, tools, the corpus and the environment record (common), and the systems measured
with how to run each baseline (systems). Run a suite as a module from the repository's root:
`python3 -m experiments.suites.compile [--quick]` (scripts/run does)."""
