"""``splendor-mcts analyze``: the JSON-lines analysis engine on standard input and output
(:mod:`splendor_mcts.analysis.protocol`, docs/analysis-protocol.md)."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from ..analysis.protocol import Engine
from ..analysis.running import SearchLimits, check_limits
from ..console import note_reading_stdin
from ..ranges import Whole
from ..search.defaults import PROTOCOL_ITERATIONS
from ..search.settings import SettingError
from .options import add, command_parser, parameter_default

EXAMPLES = """examples:
  splendor-mcts analyze < queries.jsonl > answers.jsonl
  echo '{"id": "q1", "position": '"$(cat examples/splendor-2p-view.json)"', "maxIterations": 2000}' | splendor-mcts analyze
"""

WORKERS = Whole(1, 1024)  # a thread each


def register(subparsers: Any) -> None:
    """Add ``analyze`` to the ``splendor-mcts`` parser."""
    p = command_parser(subparsers, 
        "analyze", help="JSON-lines analysis engine on stdin/stdout (like KataGo's analysis engine)",
        description="Read one JSON query per line on standard input and write JSON responses on standard "
        "output, matched by id. See docs/analysis-protocol.md.", epilog=EXAMPLES)
    add(p, "workers", what="queries analyzed", default=parameter_default(Engine, "workers"))
    add(p, "threads", help="default search threads per query (default {default})",
        default=parameter_default(Engine, "default_threads"), metavar=None)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Answer queries until the end of standard input; the exit code."""
    WORKERS.check(args.workers, "--workers")
    try:
        check_limits(SearchLimits(iterations=PROTOCOL_ITERATIONS, threads=args.threads))
    except SettingError as exc:
        raise ValueError(f"--threads: {exc}") from None
    note_reading_stdin("analyze", "JSON queries, one per line,")
    return Engine(sys.stdout, workers=args.workers, default_threads=args.threads).run(sys.stdin)
